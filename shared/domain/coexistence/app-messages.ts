/**
 * Messages of a number shared with the WhatsApp Business app (contract §23, coexistence): what
 * the business sent from the app (echoes: outbound, `source: business_app`, never sent by the
 * service, no cost, `message.echoed`) and the chats from before onboarding (history:
 * `source: history`, never opening or extending a window, never announced as received). Each is
 * stored once per platform id, whatever order or how often it arrives; a platform id the service
 * already knows (a message the API sent, an echo already stored) is left as it is.
 */
import { insertMessage, messageByPlatformId } from '#shared/data/message';
import { contactOfSender } from '#shared/domain/contacts/lifecycle';
import { storedNumber } from '#shared/domain/numbers/numbers';
import { stableId } from '#shared/ids';
import type { AppMessage } from '#shared/platform/coexistence-webhooks';
import { OUTBOUND_STATUSES, type Message, type MessageStatus } from '#shared/records/message';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/** The app's last status of a business message, as a status of ours: `played` is `read`, `error` is `failed`, `pending` is `sent`. */
function outboundStatus(status: string | null): MessageStatus {
  if (status === 'played') return 'read';
  if (status === 'error') return 'failed';
  return (OUTBOUND_STATUSES as readonly string[]).includes(status ?? '') && status !== 'queued' ? (status as MessageStatus) : 'sent';
}

async function storeAppMessage(workspace: Workspace, app: AppMessage, source: NonNullable<Message['source']>): Promise<void> {
  const ws = workspace.id;
  if (await messageByPlatformId(ws, app.providerMessageId)) return;
  const { phone, userId } = app.customer;
  // The customer is filed as a contact, as for any message of theirs; nothing here opts them out or opens a window.
  const contact = await contactOfSender(ws, { ...(phone && { phone }), ...(userId && { userId }) }, { optOut: false });
  const status: MessageStatus = app.fromBusiness ? outboundStatus(source === 'history' ? app.status : 'sent') : 'received';
  const at = app.at;
  await insertMessage({
    id: stableId(`${ws}:${app.providerMessageId}`, Date.parse(at)),
    workspace_id: ws,
    phone_number: phone ?? contact.phone_number,
    ...storedNumber(workspace, app.phoneNumberId),
    ...(userId && { user_id: userId }),
    source,
    direction: app.fromBusiness ? 'outbound' : 'inbound',
    status,
    message_type: app.type,
    template_name: null,
    language: null,
    content: app.content,
    template_parameters: null,
    rendered: null,
    ...app.fields,
    campaign_id: null,
    contact_id: contact.id,
    provider_message_id: app.providerMessageId,
    error: null,
    metadata: {
      sent_at: app.fromBusiness ? at : null,
      delivered_at: status === 'delivered' || status === 'read' ? at : null,
      read_at: status === 'read' ? at : null,
      failed_at: status === 'failed' ? at : null,
    },
    created_at: at,
    updated_at: nowIso(),
  });
}

/** A message the business sent from the app. */
export const recordEcho = (workspace: Workspace, echo: AppMessage) => storeAppMessage(workspace, { ...echo, fromBusiness: true }, 'business_app');

/** A message of the chats before onboarding, the business's or the customer's. */
export const recordHistory = (workspace: Workspace, message: AppMessage) => storeAppMessage(workspace, message, 'history');
