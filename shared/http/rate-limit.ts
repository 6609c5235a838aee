import { admit, type Admission } from '#shared/data/rate-window-admission';
import { releasePlace } from '#shared/data/rate-window-release';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { rateLimitOf, type Workspace } from '#shared/records/workspace';
import { httpErrors } from '#shared/http/errors';
import { admissionCount, carryBack } from '#shared/http/usage';

/** A request's admission, under way from the moment its workspace is known. */
export interface PendingAdmission {
  workspaceId: string;
  /** Whether the admission counts the request in usage (contract §9) when it admits it. */
  counts: boolean;
  admission: Promise<Admission>;
}

/** Twice the workspace's limit, read when a second's window starts (the workspace cache is a few seconds old at most). */
async function twiceLimitOf(workspaceId: string): Promise<number> {
  const workspace = await cachedWorkspace(workspaceId);
  if (!workspace) throw new Error(`Workspace ${workspaceId} not found`);
  return 2 * rateLimitOf(workspace);
}

/**
 * Starts admitting a request of the workspace: one conditional write (data/rate-window), which
 * also counts it in usage when `counts` (a request that must not see itself counts once answered).
 */
export function startAdmission(workspaceId: string, counts: boolean): PendingAdmission {
  const count = counts ? admissionCount(workspaceId) : undefined;
  const admission = admit(workspaceId, () => twiceLimitOf(workspaceId), count);
  if (count) {
    const unlessAdmitted = (admitted: boolean) => {
      if (!admitted) carryBack(workspaceId, count);
    };
    admission.then(
      (outcome) => unlessAdmitted(outcome.admitted),
      () => unlessAdmitted(false),
    );
  }
  return { workspaceId, counts, admission };
}

/** Gives the place (and the count) back when the request it was taken for turns out not to be the workspace's. */
export async function withdrawAdmission({ workspaceId, counts, admission }: PendingAdmission): Promise<void> {
  const outcome = await admission;
  if (outcome.admitted) await releasePlace(workspaceId, outcome.second, counts);
}

/**
 * Admits a request of the workspace, or refuses it with 429 `rate_limited` (contract §14).
 * `pending` may have been started already, alongside the key (authenticate). Resolves to whether
 * the admission counted the request, and the partitions the workspace's message list reads.
 */
export async function admitRequest(workspace: Workspace, counts: boolean, pending?: PendingAdmission): Promise<{ counted: boolean; listShards: number }> {
  const started = pending?.workspaceId === workspace.id ? pending : startAdmission(workspace.id, counts);
  const outcome = await started.admission;
  if (!outcome.admitted) throw httpErrors.rateLimited(outcome.retryAfterSeconds, rateLimitOf(workspace));
  return { counted: started.counts, listShards: outcome.listShards };
}
