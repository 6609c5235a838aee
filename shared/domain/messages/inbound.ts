import { updateContact, upsertContact } from '#shared/domain/contacts/lifecycle';
import { openWindow } from '#shared/domain/messages/window';
import { insertMessage } from '#shared/data/message';
import type { Message } from '#shared/domain/messages/message';
import { stableId } from '#shared/ids';
import { nowIso } from '#shared/time';
import type { PlatformInbound } from '#shared/platform/webhook-payload';

/** A customer's message as the platform reported it; its `wamid.…` id makes a repeat stored once. */
export type InboundMessage = Omit<PlatformInbound, 'phoneNumberId'>;

/**
 * A customer's message: opens the 24-hour window, files the sender as a contact and stores the
 * message (`inbound`, `received`), in that order so a visible message implies the rest. Every step is idempotent: a re-delivered webhook changes nothing.
 */
export async function recordInbound(ws: string, inbound: InboundMessage): Promise<Message> {
  await openWindow(ws, inbound.from, inbound.at);
  // The profile name names a new contact, or one without a name; a name set through the API is kept.
  let { contact } = await upsertContact(ws, inbound.from, {});
  if (!contact.name && inbound.profileName) contact = await updateContact(ws, contact.id, { name: inbound.profileName });
  const message = await insertMessage({
    id: stableId(`${ws}:${inbound.providerMessageId}`, Date.parse(inbound.at)),
    workspace_id: ws,
    phone_number: inbound.from,
    direction: 'inbound',
    status: 'received',
    message_type: inbound.type,
    template_name: null,
    language: null,
    content: inbound.content,
    template_parameters: null,
    rendered: null,
    campaign_id: null,
    contact_id: contact.id,
    provider_message_id: inbound.providerMessageId,
    error: null,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null },
    created_at: inbound.at,
    updated_at: nowIso(),
  });
  return message;
}
