import { recordInbound, recordMessageChange, recordNumberChange } from '#shared/domain/messages/inbound';
import { recordStatusReport } from '#shared/domain/messages/status-report';
import { recordTemplateStatus } from '#shared/domain/templates/catalog';
import { findWorkspaceByPhoneNumberId, findWorkspacesByWabaId } from '#shared/domain/workspaces';
import type { Workspace } from '#shared/domain/workspaces';
import { logger } from '#shared/logger';
import { readWebhook } from '#shared/platform/webhook-payload';
import { sqsJobHandler } from '#shared/sqs-worker';

/** Runs `apply` for each part in its number's workspace; parts for numbers of no workspace are logged and dropped. */
async function each<T extends { phoneNumberId: string }>(parts: T[], apply: (workspace: Workspace, part: T) => Promise<unknown>): Promise<void> {
  for (const part of parts) {
    const workspace = await findWorkspaceByPhoneNumberId(part.phoneNumberId);
    if (!workspace) logger.warn('Platform webhook for an unknown number', { phoneNumberId: part.phoneNumberId });
    else await apply(workspace, part);
  }
}

/** One platform webhook: status reports, customer messages, number changes, edits and deletions, template status changes. */
async function processOne(payload: unknown): Promise<void> {
  const webhook = readWebhook(payload);
  await each(webhook.statuses, recordStatusReport);
  await each(webhook.messages, recordInbound);
  await each(webhook.numberChanges, recordNumberChange);
  await each(webhook.messageChanges, recordMessageChange);
  for (const update of webhook.templateUpdates) {
    const workspaces = await findWorkspacesByWabaId(update.wabaId);
    if (!workspaces.length) logger.warn('Template status for an unknown business account', { wabaId: update.wabaId });
    for (const workspace of workspaces) await recordTemplateStatus(workspace, update);
  }
}

export const handler = sqsJobHandler<unknown>('inbound', processOne);
