/**
 * What the operator does to workspaces over /admin/v1 (contract §19), from the same domain
 * functions the workspaces' own API uses: a workspace as the operator sees it, opening one with
 * its first key, and reading one that must exist.
 */
import { createKey } from '#shared/domain/api-keys';
import { DEFAULT_STOP_WORDS } from '#shared/domain/messages/opt-out';
import { listNumbers } from '#shared/domain/numbers/numbers';
import { refuseHeldElsewhere, requireListed } from '#shared/domain/numbers/connect';
import { platformSecrets } from '#shared/platform/secrets';
import { syncTemplates } from '#shared/domain/templates/catalog';
import { createWorkspace, findWorkspaceByPhoneNumberId, getWorkspace, listWorkspaces } from '#shared/domain/workspaces';
import { setNumberThroughput } from '#shared/domain/messages/send-rate';
import { errors } from '#shared/errors';
import { logger } from '#shared/logger';
import { rateLimitOf, type Plan, type Workspace } from '#shared/records/workspace';

/**
 * A workspace as the operator sees it: its settings as they apply (the plan's rate limit and the
 * default stop words when none of its own are set), its numbers, its Embedded Signup onboarding
 * (null until one is started; never its token, which is only in its secret) and, while it is
 * erased, the erasure's progress.
 */
export async function operatorView(workspace: Workspace) {
  return {
    id: workspace.id,
    name: workspace.name,
    plan: workspace.plan,
    rate_limit: rateLimitOf(workspace),
    stop_words: workspace.stop_words ?? DEFAULT_STOP_WORDS,
    suspended: workspace.suspended === true,
    status: workspace.status ?? 'active',
    // Being erased: its numbers are going (reading them could write the first one's item again).
    numbers: workspace.status === 'deleting' ? [] : await listNumbers(workspace),
    onboarding: workspace.onboarding ?? null,
    erasure: workspace.erasure
      ? {
          requested_at: workspace.erasure.requested_at,
          step: workspace.erasure.step,
          items_deleted: workspace.erasure.items_deleted,
          media_deleted: workspace.erasure.media_deleted,
        }
      : null,
    created_at: workspace.created_at,
  };
}

export async function requireWorkspace(id: string): Promise<Workspace> {
  const workspace = await getWorkspace(id);
  if (!workspace) throw errors.notFound('Workspace');
  return workspace;
}

/** A workspace the operator may change: one being erased refuses (409 `invalid_state`), so nothing of it is written again. */
export async function requireActiveWorkspace(id: string): Promise<Workspace> {
  const workspace = await requireWorkspace(id);
  if (workspace.status === 'deleting') throw errors.refused('invalid_state', 'The workspace is being erased');
  return workspace;
}

/** Every workspace, oldest first. */
export async function operatorList() {
  const workspaces = (await listWorkspaces()).sort((a, b) => a.created_at.localeCompare(b.created_at));
  return Promise.all(workspaces.map(operatorView));
}

/**
 * A new workspace with its first API key (the only time its secret is shown), and its first number
 * when one is named (else onboarding or connecting a number gives it one). Its templates are
 * synced at once so it can send; when the platform does not answer, they follow with the
 * scheduled sync (every 15 minutes).
 */
export async function openWorkspace(input: { name: string; plan: Plan; phone_number_id?: string; waba_id?: string }) {
  // Its first number is connected by the operator, with the shared token: one nobody holds, that its account lists (contract §22).
  if (input.phone_number_id && input.waba_id) {
    const number = { phone_number_id: input.phone_number_id, waba_id: input.waba_id };
    await refuseHeldElsewhere(number);
    await requireListed(number, (await platformSecrets()).access_token);
  }
  const workspace = await createWorkspace(input);
  const key = await createKey(workspace.id, { name: 'Initial key', description: 'Created by the operator' });
  try {
    await syncTemplates(workspace);
  } catch (error) {
    logger.warn('Template sync of a new workspace failed', { workspaceId: workspace.id, error: (error as Error).message });
  }
  return { workspace: await operatorView(workspace), key };
}

/** A number's platform throughput, which its sends are paced to; the number must route to a workspace. */
export async function setThroughputOf(phoneNumberId: string, throughput_mps: number) {
  if (!(await findWorkspaceByPhoneNumberId(phoneNumberId))) throw errors.notFound('Number');
  await setNumberThroughput(phoneNumberId, throughput_mps);
  return { id: phoneNumberId, throughput_mps };
}
