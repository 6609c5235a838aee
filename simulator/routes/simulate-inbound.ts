import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { displayPhoneNumber, newWamid } from '#simulator/ids';
import { webhookSha256Of } from '#simulator/media';
import { businessNumber, type SimulatorState } from '#simulator/state';
import { inboundWebhook, unixSeconds, type InboundMessage, type InboundSender } from '#simulator/webhook-payloads';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string or number of digits (a leading `+` is dropped), else Graph error 100 naming the field. */
export function digits(value: unknown, field: string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\+?\d{5,20}$/.test(text)) throw graphErrors.invalidParameter(`${field} must be a string of digits`);
  return text.replace(/^\+/, '');
}

/** An optional non-empty string, else Graph error 100 naming the field. */
function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value) throw graphErrors.invalidParameter(`${field} must be a non-empty string`);
  return value;
}

export const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'];
const OBJECT_TYPES = ['location', 'interactive', 'button', 'reaction'];
const TYPES = ['text', ...MEDIA_TYPES, ...OBJECT_TYPES, 'contacts', 'unsupported'];

/**
 * The message's own part, shaped as the platform posts it: media objects get the id, mime type and
 * sha256 of what the simulator serves for them (the given id, or a new one); the other kinds pass
 * the platform's object through; `unsupported` carries the platform's 131051 error.
 */
export function messageBody(state: SimulatorState, type: string, body: Record<string, unknown>): Record<string, unknown> {
  if (type === 'text') {
    if (typeof body.text !== 'string' || body.text === '') throw graphErrors.invalidParameter('text must be a non-empty string');
    return { text: { body: body.text } };
  }
  if (type === 'unsupported') {
    return {
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } },
      ],
    };
  }
  if (type === 'contacts') {
    if (!Array.isArray(body.contacts)) throw graphErrors.invalidParameter("contacts must be the platform's array of contact cards");
    return { contacts: body.contacts };
  }
  const given = body[type];
  if (!isObject(given)) throw graphErrors.invalidParameter(`${type} must be the platform's ${type} object`);
  if (!MEDIA_TYPES.includes(type)) return { [type]: given };
  const media = state.media.forInbound(type, typeof given.id === 'string' ? given.id : undefined);
  return { [type]: { ...given, id: media.id, mime_type: media.mime_type, sha256: webhookSha256Of(media.bytes) } };
}

/** Posts a customer's message to the receiver (the webhook, signed), remembering it so that a read receipt may name it. */
export function deliverInbound(state: SimulatorState, phoneNumberId: string, sender: InboundSender, message: InboundMessage) {
  state.reads.noteInbound(message.id, phoneNumberId);
  return state.webhooks.post(inboundWebhook(businessNumber(state, phoneNumberId), sender, message));
}

/**
 * `POST /_simulate/inbound` `{ phone_number_id, from, type?, text?, <type>?, context?, name?, user_id?, username? }`: a
 * customer's message arrives. With `user_id` (a business-scoped user id), `from` may be left out
 * (a customer known by username whose number is withheld), and the webhook carries `from_user_id`,
 * `contacts[].user_id` and `contacts[].profile.username` as the platform does ("Business-scoped user IDs"). `type` defaults to `text`; the other types take the platform's object
 * under their own name (`image: { caption }`, `interactive: { type: "button_reply", button_reply }`,
 * `reaction: { message_id, emoji }`, …). `context` is the wamid replied to. POSTs the signed
 * webhook right away and answers once the receiver has answered: `{ ok, wamid, delivered_status }`
 * (and `media_id` for media), failed deliveries being retried in the background like any webhook.
 */
export const simulateInbound =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = await ctx.readJson();
    if (!isObject(body))
      throw graphErrors.invalidParameter('Body must be a JSON object { phone_number_id, from, type?, text?, <type>?, context?, name?, user_id?, username? }');
    const phoneNumberId = digits(body.phone_number_id, 'phone_number_id');
    // A customer known by username may come with a user id and no number.
    const userId = optionalText(body.user_id, 'user_id');
    const username = optionalText(body.username, 'username');
    const from = userId && body.from === undefined ? undefined : digits(body.from, 'from');
    const type = body.type ?? 'text';
    if (typeof type !== 'string' || !TYPES.includes(type)) throw graphErrors.invalidParameter(`type must be one of ${TYPES.join(', ')}`);
    if (body.name !== undefined && typeof body.name !== 'string') throw graphErrors.invalidParameter('name must be a string');
    if (body.context !== undefined && (typeof body.context !== 'string' || !body.context))
      throw graphErrors.invalidParameter('context must be the wamid of the message replied to');
    if (!state.webhooks.hasUrl) {
      throw new GraphError(409, 100, 'SimulatorException', 'No webhook URL configured (SimulatorOptions.webhookUrl or setWebhookUrl)');
    }

    const wamid = newWamid(from ?? userId!, 'inbound');
    const message: InboundMessage = {
      ...(from && { from }),
      ...(userId && { from_user_id: userId }),
      id: wamid,
      timestamp: unixSeconds(),
      type,
      ...(typeof body.context === 'string' && { context: { from: displayPhoneNumber(phoneNumberId), id: body.context } }),
      ...messageBody(state, type, body),
    };
    const name = body.name || `Customer ${(from ?? userId!).slice(-4)}`;
    const sender = { name, ...(from && { waId: from }), ...(userId && { userId }), ...(username && { username }) };
    const result = await deliverInbound(state, phoneNumberId, sender, message);
    const mediaId = (message[type] as { id?: string } | undefined)?.id;
    return ok({
      ok: true,
      wamid,
      ...(MEDIA_TYPES.includes(type) && { media_id: mediaId }),
      delivered_status: result.status,
      ...(result.error && { error: result.error }),
    });
  };
