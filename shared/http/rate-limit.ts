import { admit, releasePlace, type Admission } from '#shared/data/rate-window';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { rateLimitOf, type Workspace } from '#shared/records/workspace';
import { httpErrors } from '#shared/http/errors';

/** A request's admission, under way from the moment its workspace is known. */
export interface PendingAdmission {
  workspaceId: string;
  admission: Promise<Admission>;
}

/** Twice the workspace's limit, read when a second's window starts (the workspace cache is a few seconds old at most). */
async function twiceLimitOf(workspaceId: string): Promise<number> {
  const workspace = await cachedWorkspace(workspaceId);
  if (!workspace) throw new Error(`Workspace ${workspaceId} not found`);
  return 2 * rateLimitOf(workspace);
}

/** Starts admitting a request of the workspace: one conditional write (data/rate-window). */
export function startAdmission(workspaceId: string): PendingAdmission {
  return { workspaceId, admission: admit(workspaceId, () => twiceLimitOf(workspaceId)) };
}

/** Gives the place back when the request it was taken for turns out not to be the workspace's. */
export async function withdrawAdmission({ workspaceId, admission }: PendingAdmission): Promise<void> {
  const outcome = await admission;
  if (outcome.admitted) await releasePlace(workspaceId, outcome.second);
}

/**
 * Admits a request of the workspace, or refuses it with 429 `rate_limited` (contract §14).
 * `pending` may have been started already, alongside the key (authenticate).
 */
export async function admitRequest(workspace: Workspace, pending?: PendingAdmission): Promise<void> {
  const { admission } = pending?.workspaceId === workspace.id ? pending : startAdmission(workspace.id);
  const outcome = await admission;
  if (!outcome.admitted) throw httpErrors.rateLimited(outcome.retryAfterSeconds, rateLimitOf(workspace));
}
