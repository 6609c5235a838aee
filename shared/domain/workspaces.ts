import { allWorkspaces, getWorkspace, insertWorkspace, updateSettings, type WorkspaceSettings } from '#shared/data/workspace';
import { workspaceIdOfNumber } from '#shared/data/business-number';
import { getAccountClaim } from '#shared/data/account-claim';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import type { Plan, Workspace } from '#shared/records/workspace';

/**
 * Creates the workspace and claims its phone_number_id and business account in one transaction,
 * so a platform number always routes to exactly one workspace (contract §22).
 */
export async function createWorkspace<Input extends { name: string; plan: Plan; phone_number_id?: string; waba_id?: string }>(
  input: Input,
): Promise<Workspace & Input> {
  const workspace = { id: newId(), ...input, created_at: nowIso() };
  const outcome = await insertWorkspace(workspace);
  if (outcome === 'account_in_use') throw errors.refused('account_in_use', `Business account ${input.waba_id} is held by another workspace`);
  if (outcome === 'number_in_use') throw errors.refused('number_in_use', `Number ${input.phone_number_id} is connected to another workspace`);
  return workspace;
}

export { getWorkspace };

/** Workspaces change rarely (plan, settings); a short per-process cache saves a read on every request and every message. */
const WORKSPACE_CACHE_MS = 3_000;
const workspaceCache = new Map<string, { workspace: Workspace; until: number }>();
/** A number changes workspace only when disconnected and connected again (rare, contract §17): found routes are kept a while. */
const ROUTE_CACHE_MS = 10_000;
const phoneNumberRoutes = new Map<string, { workspaceId: string; until: number }>();

/** Reads under way: the jobs of a queue batch miss the cache together when its entry expires, and share one read. */
const workspaceReads = new Map<string, Promise<Workspace | undefined>>();

/** A change made in this process is seen at once by its next request; other processes see it within WORKSPACE_CACHE_MS. */
export const forgetWorkspace = (id: string): boolean => {
  workspaceReads.delete(id);
  return workspaceCache.delete(id);
};

/** One read of the workspace for every caller that missed the cache meanwhile; it fills the cache unless forgotten meanwhile. */
function sharedRead(id: string): Promise<Workspace | undefined> {
  const under = workspaceReads.get(id);
  if (under) return under;
  const read: Promise<Workspace | undefined> = getWorkspace(id).then((workspace) => {
    if (workspaceReads.get(id) !== read) return workspace;
    workspaceReads.delete(id);
    if (workspace) workspaceCache.set(id, { workspace, until: Date.now() + WORKSPACE_CACHE_MS });
    return workspace;
  });
  workspaceReads.set(id, read);
  read.catch(() => workspaceReads.get(id) === read && workspaceReads.delete(id));
  return read;
}

/**
 * The workspace as the service's work sees it. One being erased (contract §19) is already gone
 * here: its keys are refused (401), its sends, fan-outs, webhook deliveries and media copies stop,
 * and platform webhooks for its numbers are dropped, so nothing writes its items again while the
 * erasure deletes them. Only the operator's routes read it as it is (getWorkspace).
 */
export async function cachedWorkspace(id: string): Promise<Workspace | undefined> {
  const hit = workspaceCache.get(id);
  if (hit && hit.until > Date.now()) return live(hit.workspace);
  return live(await sharedRead(id));
}

const live = (workspace: Workspace | undefined): Workspace | undefined => (workspace?.status === 'deleting' ? undefined : workspace);

/** Every workspace not being erased: the ones the service works for (template syncs, account-level webhooks). */
export const liveWorkspaces = async (): Promise<Workspace[]> => (await allWorkspaces()).filter((workspace) => live(workspace));

/** Routes a platform webhook to its workspace by the number it was sent to. */
export async function findWorkspaceByPhoneNumberId(phoneNumberId: string): Promise<Workspace | undefined> {
  const hit = phoneNumberRoutes.get(phoneNumberId);
  let workspaceId = hit && hit.until > Date.now() ? hit.workspaceId : undefined;
  if (!workspaceId) {
    workspaceId = await workspaceIdOfNumber(phoneNumberId);
    if (!workspaceId) return undefined;
    phoneNumberRoutes.set(phoneNumberId, { workspaceId, until: Date.now() + ROUTE_CACHE_MS });
  }
  return cachedWorkspace(workspaceId);
}

/** Every workspace, those being erased included (the operator's list). */
export const listWorkspaces = allWorkspaces;

/**
 * The workspace that holds a business account (contract §22), for the account-level webhooks
 * (template status and category): only it hears of the account's templates. None when no live
 * workspace holds it.
 */
export async function accountHolder(wabaId: string): Promise<Workspace | undefined> {
  const claim = await getAccountClaim(wabaId);
  return claim && cachedWorkspace(claim.workspace_id);
}

/** Sets the workspace's own request rate limit (requests per second), instead of its plan's. */
export const setRateLimit = (id: string, rate_limit: number): Promise<Workspace> => updateWorkspace(id, { rate_limit });

/** Stop words as stored: trimmed, inner spaces single, blank ones dropped, duplicates (any case) once. */
const cleanStopWords = (words: string[]): string[] => {
  const seen = new Set<string>();
  return words.map((w) => w.trim().replace(/\s+/g, ' ')).filter((w) => w && !seen.has(w.toUpperCase()) && seen.add(w.toUpperCase()));
};

/** The operator's settings of a workspace (contract §19): plan, rate limit, stop words, suspension. No change: the workspace as it is. */
export async function updateWorkspace(id: string, changes: Omit<WorkspaceSettings, 'default_number_id' | 'suspended_at' | 'onboarding'>): Promise<Workspace> {
  const settings: WorkspaceSettings = {
    ...changes,
    ...(changes.stop_words && { stop_words: cleanStopWords(changes.stop_words) }),
    ...(changes.suspended && { suspended_at: nowIso() }),
  };
  const workspace = Object.keys(settings).length ? await updateSettings(id, settings) : await getWorkspace(id);
  if (!workspace) throw errors.notFound('Workspace');
  forgetWorkspace(id);
  return workspace;
}
