import { errors } from '#shared/errors';
import { allTemplates, getTemplate, replaceTemplates, updateTemplateStatus } from '#shared/data/template';
import type { TemplateStatusUpdate } from '#shared/platform/webhook-payload';
import { logger } from '#shared/logger';
import type { Workspace } from '#shared/records/workspace';
import { accessTokenFor } from '#shared/platform/secrets';
import { fetchTemplates, type PlatformTemplate } from '#shared/platform/graph-client';
import { onPlatform } from '#shared/domain/platform-calls';
import { accountsOf, wabaOfNumber } from '#shared/domain/numbers/numbers';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { accountKey, withAccount, type AccountTemplate } from '#shared/domain/templates/business-account';
import { nowIso } from '#shared/time';
import { fromPlatform } from '#shared/domain/templates/from-platform';
import type { Template } from '#shared/records/template';

/**
 * The workspace's stored templates of the accounts it holds (contract §22): those of an account
 * whose last number it disconnected stay stored but are nobody's to see or change.
 */
export async function heldTemplates(workspace: Workspace): Promise<AccountTemplate[]> {
  const [stored, held] = await Promise.all([allTemplates(workspace.id), accountsOf(workspace)]);
  return stored.map((t) => withAccount(workspace, t)).filter((t) => held.includes(t.waba_id));
}

export async function listTemplates(
  workspace: Workspace,
  filter: { status: string; name?: string; language?: string; waba_id?: string },
): Promise<AccountTemplate[]> {
  const templates = await heldTemplates(workspace);
  return templates
    .filter(
      (t) =>
        t.status === filter.status &&
        (!filter.name || t.name === filter.name) &&
        (!filter.language || t.language === filter.language) &&
        (!filter.waba_id || t.waba_id === filter.waba_id),
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language) || a.waba_id.localeCompare(b.waba_id));
}

/** One business account's template list; the platform's refusal or silence is the domain's `platform_error`. */
const platformTemplates = async (workspace: Workspace, wabaId: string): Promise<PlatformTemplate[]> =>
  onPlatform('list the templates', async () => fetchTemplates(wabaId, await accessTokenFor(workspace.id)));

/**
 * Replaces one business account's stored templates (the first one's by default) with the
 * platform's current list; an account the workspace does not hold (contract §22) is not asked for.
 */
export async function syncTemplates(workspace: Workspace, wabaId = workspace.waba_id): Promise<number> {
  if (!wabaId) return 0; // no number yet, so no business account: nothing to sync
  if (!(await accountsOf(workspace)).includes(wabaId)) {
    logger.warn('Template sync skipped: the workspace does not hold the business account', { workspaceId: workspace.id, wabaId });
    return 0;
  }
  const fetched = (await platformTemplates(workspace, wabaId)).map(fromPlatform);
  // One record per name and language, even if the platform lists one twice.
  const platform = [...new Map(fetched.map((t) => [`${t.name}#${t.language}`, t])).values()];
  await replaceTemplates(workspace.id, accountKey(workspace, wabaId), platform, nowIso());
  return platform.length;
}

/** Syncs the templates of every business account the workspace's numbers belong to; how many it stores in all. */
export async function syncAllAccounts(workspace: Workspace): Promise<number> {
  let total = 0;
  for (const wabaId of await accountsOf(workspace)) total += await syncTemplates(workspace, wabaId);
  return total;
}

/** A template of the business account that exists in this language and is approved, or the contract's 422. */
export async function approvedTemplate(workspace: Workspace, wabaId: string, name: string, language: string): Promise<Template> {
  return approvedOrRefused(await getTemplate(workspace.id, accountKey(workspace, wabaId), name, language), name, language);
}

/** The template read, if it exists and is approved; else the contract's 422. */
export function approvedOrRefused(template: Template | undefined, name: string, language: string): Template {
  if (!template) throw errors.refused('template_not_found', `No template ${name} in ${language}`);
  if (template.status !== 'APPROVED') throw errors.refused('template_not_approved', `Template ${name} (${language}) is ${template.status}`);
  return template;
}

/**
 * The approved template a send from this business number may use: its business account's (a
 * message or campaign from before several numbers names no number: the first one's).
 */
export async function approvedTemplateFor(workspaceId: string, numberId: string | undefined, name: string, language: string): Promise<Template> {
  const workspace = await cachedWorkspace(workspaceId);
  if (!workspace) throw errors.notFound('Workspace');
  return approvedTemplate(workspace, await wabaOfNumber(workspace, numberId), name, language);
}

/**
 * Templates of a workspace are few (one small item collection), so a lookup by id reads them all;
 * only the accounts it holds count (contract §22); `wabaId` limits it to one account.
 */
export async function templateById(workspace: Workspace, id: string, wabaId?: string): Promise<AccountTemplate | undefined> {
  const found = (await heldTemplates(workspace)).find((t) => t.id === id);
  return found && (wabaId === undefined || found.waba_id === wabaId) ? found : undefined;
}

/**
 * The platform's status-update events as template statuses: events that are statuses keep their
 * name, `REINSTATED` and `UNARCHIVED` mean approved again; the others (`FLAGGED`: at risk but
 * still sendable, `LOCKED`, `LIMIT_EXCEEDED`, …) change no status, and the template is synced to
 * whatever the platform lists.
 */
const STATUS_OF_EVENT: Record<string, string> = {
  APPROVED: 'APPROVED',
  PENDING: 'PENDING',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  REINSTATED: 'APPROVED',
  UNARCHIVED: 'APPROVED',
};

/**
 * A template status the platform pushed (`message_template_status_update`) for one of the
 * workspace's business accounts: the stored template takes it at once (the table's stream
 * announces `template.updated`). A template not stored yet, one created since the last sync, comes
 * with a sync of that account's list.
 */
export async function recordTemplateStatus(workspace: Workspace, update: TemplateStatusUpdate): Promise<void> {
  const status = STATUS_OF_EVENT[update.status];
  if (status && (await updateTemplateStatus(workspace.id, accountKey(workspace, update.wabaId), update.name, update.language, status, nowIso()))) return;
  await syncTemplates(workspace, update.wabaId).catch((error) =>
    logger.warn('Template sync after a status update failed', { error: (error as Error).message }),
  );
}
