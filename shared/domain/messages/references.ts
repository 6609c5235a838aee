import { getMessage } from '#shared/data/message';
import { errors } from '#shared/errors';
import type { MessageReference } from '#shared/records/message';

/**
 * A message of this workspace that a new one refers to (`reply_to`, `reaction.message_id`):
 * 404 when it is not in the workspace, 409 until the platform knows it (an outbound message
 * still queued has no platform id to quote).
 */
export async function referencedMessage(ws: string, id: string, field: string): Promise<MessageReference> {
  const target = await getMessage(ws, id, true);
  if (!target) throw errors.notFound(`The message of ${field}`);
  if (!target.provider_message_id) throw errors.invalidState(`The message of ${field} has not been sent yet`);
  return { message_id: target.id, provider_message_id: target.provider_message_id };
}
