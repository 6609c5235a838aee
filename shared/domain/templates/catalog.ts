import { errors } from '#shared/errors';
import { allTemplates, getTemplate, replaceTemplates, updateTemplateStatus } from '#shared/data/template';
import type { TemplateStatusUpdate } from '#shared/platform/webhook-payload';
import { logger } from '#shared/logger';
import type { Workspace } from '#shared/records/workspace';
import { accessTokenFor } from '#shared/platform/secrets';
import { fetchTemplates, PlatformError, PlatformUnreachable, type PlatformTemplate } from '#shared/platform/graph-client';
import { nowIso } from '#shared/time';
import { fromPlatform } from '#shared/domain/templates/from-platform';
import { platformRefusal } from '#shared/domain/templates/platform-refusals';
import type { Template } from '#shared/records/template';

export async function listTemplates(workspaceId: string, filter: { status: string; name?: string; language?: string }): Promise<Template[]> {
  const templates = await allTemplates(workspaceId);
  return templates
    .filter((t) => t.status === filter.status && (!filter.name || t.name === filter.name) && (!filter.language || t.language === filter.language))
    .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
}

/** The platform's template list; its refusal or silence is the domain's `platform_error`. */
async function platformTemplates(workspace: Workspace): Promise<PlatformTemplate[]> {
  try {
    return await fetchTemplates(workspace.waba_id, await accessTokenFor(workspace.id));
  } catch (error) {
    if (error instanceof PlatformError) throw platformRefusal(error, 'list the templates');
    if (error instanceof PlatformUnreachable) throw errors.refused('platform_error', 'The messaging platform did not answer; try again later');
    throw error;
  }
}

/** Replaces the workspace's stored templates with the platform's current list. */
export async function syncTemplates(workspace: Workspace): Promise<number> {
  const fetched = (await platformTemplates(workspace)).map(fromPlatform);
  // One record per name and language, even if the platform lists one twice.
  const platform = [...new Map(fetched.map((t) => [`${t.name}#${t.language}`, t])).values()];
  await replaceTemplates(workspace.id, platform, nowIso());
  return platform.length;
}

/** A template that exists in this language and is approved, or the contract's 422. */
export async function approvedTemplate(workspaceId: string, name: string, language: string): Promise<Template> {
  const template = await getTemplate(workspaceId, name, language);
  if (!template) throw errors.refused('template_not_found', `No template ${name} in ${language}`);
  if (template.status !== 'APPROVED') throw errors.refused('template_not_approved', `Template ${name} (${language}) is ${template.status}`);
  return template;
}

/** Templates of a workspace are few (one small item collection), so a lookup by id reads them all. */
export async function templateById(workspaceId: string, id: string): Promise<Template | undefined> {
  return (await allTemplates(workspaceId)).find((template) => template.id === id);
}

/**
 * A template status the platform pushed (`message_template_status_update`): the stored template
 * takes it at once (the table's stream announces `template.updated`). A template not stored yet,
 * one created since the last sync, comes with a sync of the whole list.
 */
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

export async function recordTemplateStatus(workspace: Workspace, update: TemplateStatusUpdate): Promise<void> {
  const status = STATUS_OF_EVENT[update.status];
  if (status && (await updateTemplateStatus(workspace.id, update.name, update.language, status, nowIso()))) return;
  await syncTemplates(workspace).catch((error) => logger.warn('Template sync after a status update failed', { error: (error as Error).message }));
}
