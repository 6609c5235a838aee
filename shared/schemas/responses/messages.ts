/** What the message operations answer (contract §5, §12, §13). */
import * as v from 'valibot';
import { MESSAGE_STATUSES } from '#shared/records/message';
import { SESSION_KINDS } from '#shared/domain/messages/kinds/names';
import { amount, count, recordId, timestamp } from '#shared/schemas/responses/common';

/** What can be sent; inbound messages add the platform's `button` and `contacts`, and `unsupported` (shared/platform/webhook-messages.ts). */
const SENT_TYPES = ['template', ...SESSION_KINDS] as const;
const MESSAGE_TYPES = [...SENT_TYPES, 'button', 'contacts', 'unsupported'] as const;

const digits = () => v.pipe(v.string(), v.regex(/^\d*$/));
const platformCode = () => v.union([v.string(), v.number()]);
const businessNumberId = () =>
  v.pipe(v.string(), v.description("The platform's phone number id of the workspace's number it went out from or came in to (GET /numbers)"));

/** The 202 answer of POST /messages. */
export const messageAccepted = v.object({
  message_id: recordId(),
  recipient: v.pipe(digits(), v.description('The number sent to; empty for a customer known only by user id (see `recipient_user_id`)')),
  recipient_user_id: v.optional(v.pipe(v.string(), v.description('The `to_user_id` sent to'))),
  chat_group_id: v.optional(v.pipe(recordId(), v.description('The `to_group_id` sent to (`recipient` is then empty)'))),
  business_number_id: businessNumberId(),
  status: v.literal('queued'),
  message_type: v.picklist(SENT_TYPES),
  template: v.nullable(v.string()),
  language: v.nullable(v.string()),
  created_at: timestamp(),
});

/** The 200 answer of POST /messages/{id}/read. */
export const messageRead = v.object({
  message_id: recordId(),
  read: v.literal(true),
  typing: v.boolean(),
});

const listEntries = () => ({
  id: recordId(),
  phone_number: v.pipe(digits(), v.description('Digits with the country code; empty for a customer the platform knows only by user_id')),
  business_number_id: businessNumberId(),
  status: v.picklist(MESSAGE_STATUSES),
  direction: v.picklist(['outbound', 'inbound']),
  message_type: v.picklist(MESSAGE_TYPES),
  template_name: v.nullable(v.string()),
  campaign_id: v.pipe(v.nullable(recordId()), v.description('The campaign of the message, or of the message an inbound reply answers')),
  chat_group_id: v.optional(
    v.pipe(recordId(), v.description('A message to or in a chat group: the group (inbound, `phone_number` is the participant who wrote)')),
  ),
  source: v.optional(
    v.pipe(
      v.picklist(['business_app', 'history']),
      v.description(
        "`business_app`: sent from the WhatsApp Business app on the same number (never by the service, no cost); `history`: imported from the app's chats before onboarding",
      ),
    ),
  ),
  pricing: v.pipe(
    v.nullable(
      v.object({
        pricing_model: v.pipe(v.nullable(v.string()), v.examples(['PMP'])),
        category: v.pipe(v.nullable(v.string()), v.examples(['marketing', 'utility', 'authentication', 'service'])),
        type: v.pipe(v.nullable(v.string()), v.examples(['regular', 'free_customer_service', 'free_entry_point'])),
        billable: v.pipe(v.nullable(v.boolean()), v.description('Deprecated by the platform; older versions send it without `type`')),
      }),
    ),
    v.description('Outbound: how the platform priced the message, as its first status report with pricing said; null until then'),
  ),
  cost: v.pipe(
    v.nullable(
      v.object({
        amount: amount(),
        currency: v.pipe(v.string(), v.examples(['USD'])),
        market: v.pipe(v.string(), v.description("The rate card's market that priced it: a country calling code, or `default` for a market not on the card")),
      }),
    ),
    v.description(
      'What the platform charged for it by the rate card: null until it is priced and delivered (the platform charges delivered messages), or when its pricing cannot be priced',
    ),
  ),
  created_at: timestamp(),
});

export const messageListItem = v.object(listEntries());

const mediaSource = () => ({ link: v.optional(v.string()), media_id: v.optional(v.string()) });

/** A template header's parameter as accepted: exactly one kind. */
const headerParameter = () =>
  v.union([
    v.object({ text: v.string() }),
    v.object({ image: v.object(mediaSource()) }),
    v.object({ video: v.object(mediaSource()) }),
    v.object({ document: v.object({ ...mediaSource(), filename: v.optional(v.string()) }) }),
    v.object({ location: v.object({ latitude: v.number(), longitude: v.number(), name: v.optional(v.string()), address: v.optional(v.string()) }) }),
  ]);

const renderedHeader = () =>
  v.variant('format', [
    v.object({ format: v.literal('TEXT'), text: v.string() }),
    v.object({ format: v.picklist(['IMAGE', 'VIDEO']), link: v.nullable(v.string()), media_id: v.nullable(v.string()) }),
    v.object({ format: v.literal('DOCUMENT'), link: v.nullable(v.string()), media_id: v.nullable(v.string()), filename: v.nullable(v.string()) }),
    v.object({ format: v.literal('LOCATION'), latitude: v.number(), longitude: v.number(), name: v.nullable(v.string()), address: v.nullable(v.string()) }),
  ]);

/** Outbound: the interactive message as sent. Inbound: the customer's choice, or a flow's reply (`nfm_reply`). */
const interactive = () => {
  const text = { header: v.optional(v.string()), body: v.string(), footer: v.optional(v.string()) };
  return v.union([
    v.object({ type: v.literal('button'), ...text, buttons: v.array(v.object({ id: v.string(), title: v.string() })) }),
    v.object({
      type: v.literal('list'),
      ...text,
      button: v.string(),
      sections: v.array(
        v.object({ title: v.optional(v.string()), rows: v.array(v.object({ id: v.string(), title: v.string(), description: v.optional(v.string()) })) }),
      ),
    }),
    v.object({
      type: v.literal('flow'),
      ...text,
      flow_id: v.optional(v.string()),
      flow_name: v.optional(v.string()),
      flow_cta: v.string(),
      flow_token: v.optional(v.string()),
      flow_action: v.optional(v.picklist(['navigate', 'data_exchange'])),
      screen: v.optional(v.string()),
      data: v.optional(v.record(v.string(), v.unknown())),
      flow_message_version: v.optional(v.literal('3')),
      mode: v.optional(v.picklist(['draft', 'published'])),
    }),
    v.pipe(
      v.object({ type: v.literal('call_permission_request'), body: v.optional(v.string()) }),
      v.description('The request for permission to call the customer (POST /api/v1/calls/permission-requests)'),
    ),
    v.pipe(
      v.object({ type: v.literal('request_contact_info'), body: v.string() }),
      v.description("The request that a customer known only by user id share their number; their reply's number is merged into their contact"),
    ),
    v.object({
      type: v.pipe(v.string(), v.examples(['button_reply', 'list_reply', 'nfm_reply', 'call_permission_reply'])),
      id: v.nullable(v.string()),
      title: v.nullable(v.string()),
      description: v.nullable(v.string()),
    }),
  ]);
};

/** A message this one refers to: ours when we know it, always the platform's id. */
const reference = () => ({ message_id: v.nullable(recordId()), provider_message_id: v.string() });

/** The single-message shape. */
export const message = v.object({
  ...listEntries(),
  language: v.nullable(v.string()),
  content: v.pipe(
    v.string(),
    v.description('The rendered body, text, caption, interactive body or emoji; for inbound messages what the customer wrote or chose'),
  ),
  template_parameters: v.nullable(
    v.object({
      header: v.nullable(headerParameter()),
      variables: v.union([v.array(v.string()), v.record(v.string(), v.string())]),
      buttons: v.array(v.object({ index: count(), value: v.string() })),
    }),
  ),
  rendered: v.nullable(
    v.object({
      header: v.nullable(renderedHeader()),
      body: v.string(),
      footer: v.nullable(v.string()),
      buttons: v.array(v.object({ index: count(), type: v.string(), text: v.string(), value: v.nullable(v.string()) })),
    }),
  ),
  media: v.nullable(
    v.object({
      media_id: v.nullable(v.string()),
      link: v.nullable(v.string()),
      mime_type: v.nullable(v.string()),
      sha256: v.nullable(v.string()),
      caption: v.nullable(v.string()),
      filename: v.nullable(v.string()),
      size: v.nullable(count()),
      url: v.pipe(v.nullable(v.string()), v.description('The outbound link, or a 15-minute link to the copy of inbound media (null until it is copied)')),
      error: v.optional(v.pipe(v.string(), v.description('Why the inbound media could not be copied'))),
    }),
  ),
  location: v.nullable(v.object({ latitude: v.number(), longitude: v.number(), name: v.nullable(v.string()), address: v.nullable(v.string()) })),
  interactive: v.nullable(interactive()),
  flow_response: v.optional(
    v.pipe(
      v.unknown(),
      v.description(
        "Inbound flow answers (`interactive.type` `nfm_reply`): the platform's `response_json`, parsed; null when it is not valid JSON or too large or deep to keep",
      ),
    ),
  ),
  button: v.nullable(v.object({ text: v.string(), payload: v.nullable(v.string()) })),
  reaction: v.nullable(v.object({ emoji: v.string(), ...reference() })),
  contacts: v.pipe(v.nullable(v.array(v.unknown())), v.description('Contact cards a customer shared, as the platform sent them')),
  context: v.nullable(v.object(reference())),
  user_id: v.optional(
    v.pipe(v.string(), v.description("The customer's business-scoped user id: as the platform reported it (inbound), or the `to_user_id` sent to")),
  ),
  username: v.optional(v.pipe(v.string(), v.description("Inbound: the customer's WhatsApp username, when they adopted one"))),
  test_of_campaign: v.optional(v.pipe(recordId(), v.description('A test send of this campaign (POST /api/v1/campaigns/{id}/test): never counted in it'))),
  retry_of: v.optional(v.pipe(recordId(), v.description('A retry (POST /api/v1/campaigns/{id}/retry) of this failed message of the same campaign'))),
  provider_message_id: v.pipe(v.nullable(v.string()), v.description("The platform's message id; null until sent")),
  error: v.nullable(v.object({ code: platformCode(), title: v.string(), subcode: v.optional(v.number()), details: v.optional(v.string()) })),
  metadata: v.object({
    sent_at: v.pipe(
      v.nullable(timestamp()),
      v.description(
        "When the platform accepted the message; once its `sent` report arrives with pricing, the report's time (the platform's clock, as for the other timestamps)",
      ),
    ),
    delivered_at: v.nullable(timestamp()),
    read_at: v.nullable(timestamp()),
    failed_at: v.nullable(timestamp()),
    played_at: v.nullable(timestamp()),
    edited_at: v.nullable(timestamp()),
    revoked_at: v.nullable(timestamp()),
    send_attempts: count(),
  }),
  updated_at: timestamp(),
});
