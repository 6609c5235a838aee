import { DomainError } from '#shared/errors';
import { requireMessage } from '#shared/domain/messages/list';
import { onPlatform } from '#shared/domain/platform-calls';
import { markReadOnPlatform } from '#shared/platform/read-receipt';
import { accessTokenFor } from '#shared/platform/secrets';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';

/** How long after receipt the platform lets a message be marked read (Meta, "Mark messages as read": within 30 days). */
export const READ_RECEIPT_DAYS = 30;
const DAY_MS = 86_400_000;

/** A message that cannot be marked read, refused as unprocessable (contract §21: 422 `invalid_state`). */
const cannotMark = (why: string) => new DomainError('invalid_state', why, undefined, true);

/**
 * Marks a customer's message read on the platform (two blue ticks, and every earlier message of
 * the chat with it), from the business number that received it, and with `typing` shows the
 * typing indicator (until the reply, or 25 seconds). Our own messages, and messages older than
 * the platform allows, are refused; the platform's own refusal is `platform_error`.
 */
export async function markRead(workspace: Workspace, id: string, typing: boolean) {
  const message = await requireMessage(workspace.id, id);
  if (message.direction !== 'inbound' || !message.provider_message_id) throw cannotMark('Only a message a customer sent can be marked read');
  if (Date.now() - Date.parse(message.created_at) > READ_RECEIPT_DAYS * DAY_MS)
    throw cannotMark(`The platform marks messages read only within ${READ_RECEIPT_DAYS} days of receipt`);
  const numberId = message.business_number_id ?? firstNumberOf(workspace);
  const token = await accessTokenFor(workspace.id);
  await onPlatform('mark the message read', () => markReadOnPlatform(numberId, token, message.provider_message_id!, typing));
  return { message_id: message.id, read: true as const, typing };
}
