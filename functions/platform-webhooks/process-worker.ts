import { recordIdentityChange, recordInbound, recordMessageChange } from '#shared/domain/messages/inbound';
import { recordStatusReport } from '#shared/domain/messages/status-report';
import { recordTemplateStatus } from '#shared/domain/templates/catalog';
import { recordTemplateCategory } from '#shared/domain/templates/category-update';
import { recordQualityUpdate } from '#shared/domain/numbers/quality';
import { recordPortfolioLimit } from '#shared/domain/numbers/portfolio-limit';
import { recordGroupUpdate } from '#shared/domain/chat-groups/platform-updates';
import { recordCallUpdate, recordPermissionReply } from '#shared/domain/calls/platform-updates';
import { recordEcho, recordHistory } from '#shared/domain/coexistence/app-messages';
import { recordAppContact } from '#shared/domain/coexistence/app-contacts';
import { recordOffboarding } from '#shared/domain/coexistence/offboarding';
import { accountHolder, findWorkspaceByPhoneNumberId } from '#shared/domain/workspaces';
import type { Workspace } from '#shared/records/workspace';
import { logger } from '#shared/logger';
import { readWebhook, type PlatformWebhook } from '#shared/platform/webhook-payload';
import type { PlatformInbound } from '#shared/platform/webhook-messages';
import { platformWebhookPayload, type PlatformWebhookJob } from '#shared/platform/webhook-queue';
import { sqsJobHandler } from '#shared/sqs-worker';

/** Parts of one webhook handled at once: a large one (thousands of statuses) must finish well within the worker's time-out. */
const CONCURRENCY = 16;

/**
 * Runs `apply` for each part in its number's workspace, several at a time (every step is
 * idempotent and conditional; where order matters, the caller passes one part at a time); parts
 * for numbers of no workspace are logged and dropped.
 */
async function each<T extends { phoneNumberId: string }>(parts: T[], apply: (workspace: Workspace, part: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < parts.length) {
      const part = parts[next++];
      const workspace = await findWorkspaceByPhoneNumberId(part.phoneNumberId);
      if (!workspace) logger.warn('Platform webhook for an unknown number', { phoneNumberId: part.phoneNumberId });
      else await apply(workspace, part);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, parts.length) }, lane));
}

/**
 * A webhook with a new number or user id in it (rare): its customer messages and changes one at a
 * time, oldest first, so a message after the change finds the moved contact and one before it
 * creates or finds the contact the change then moves. In the same second, a message from the number
 * or user id a change replaces went before it (the customer no longer has that one), any other after.
 */
async function messagesAndIdentityChangesInTimeOrder(webhook: PlatformWebhook): Promise<void> {
  const replaced = new Set(webhook.identityChanges.flatMap((change) => [change.number?.from, change.userId?.from].map((old) => old && `${change.at} ${old}`)));
  const fromReplaced = ({ at, sender }: PlatformInbound) => [sender.phone, sender.userId].some((who) => who && replaced.has(`${at} ${who}`));
  const parts = [
    ...webhook.identityChanges.map((change) => ({ ...change, order: 0, apply: (workspace: Workspace) => recordIdentityChange(workspace, change) })),
    ...webhook.messages.map((message) => ({
      ...message,
      order: fromReplaced(message) ? -1 : 1,
      apply: (workspace: Workspace) => recordInbound(workspace, message),
    })),
  ].sort((a, b) => (a.at === b.at ? a.order - b.order : a.at < b.at ? -1 : 1));
  for (const part of parts) await each([part], (workspace, { apply }) => apply(workspace));
}

/**
 * One platform webhook: status reports, customer messages, new numbers and user ids, edits and deletions, template status and
 * category changes, number quality and portfolio limit changes, chat groups' changes, calls and call permissions, and what a
 * number shared with the WhatsApp Business app reports (its echoes, history, contacts, offboarding).
 */
async function processOne(job: PlatformWebhookJob): Promise<void> {
  const webhook = readWebhook(await platformWebhookPayload(job));
  // Customers first; then what refers to earlier messages (reports, edits).
  if (webhook.identityChanges.length) await messagesAndIdentityChangesInTimeOrder(webhook);
  else await each(webhook.messages, recordInbound);
  await each(webhook.statuses, recordStatusReport);
  await each(webhook.messageChanges, recordMessageChange);
  for (const update of webhook.templateUpdates) {
    const holder = await accountHolder(update.wabaId);
    if (holder) await recordTemplateStatus(holder, update);
    else logger.warn('Template status for a business account no workspace holds', { wabaId: update.wabaId });
  }
  for (const update of webhook.categoryUpdates) {
    const holder = await accountHolder(update.wabaId);
    if (holder) await recordTemplateCategory(holder, update);
    else logger.warn('Template category for a business account no workspace holds', { wabaId: update.wabaId });
  }
  for (const update of webhook.qualityUpdates) await recordQualityUpdate(update);
  for (const update of webhook.limitUpdates) await recordPortfolioLimit(update);
  // In the order the platform listed them: a group's creation before what happened in it.
  for (const update of webhook.groupUpdates) await each([update], recordGroupUpdate);
  // A call's events in the order the platform listed them (its connect before its end).
  for (const update of webhook.callUpdates) await each([update], recordCallUpdate);
  await each(webhook.permissionReplies, recordPermissionReply);
  await each(webhook.echoes, recordEcho);
  await each(webhook.history, recordHistory);
  await each(webhook.appContacts, (workspace, contact) => recordAppContact(workspace.id, contact));
  for (const offboarding of webhook.offboardings) await recordOffboarding(offboarding);
}

export const handler = sqsJobHandler<PlatformWebhookJob>('inbound', processOne);
