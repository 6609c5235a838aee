import {
  accountUpdateWebhook,
  echoWebhook,
  HISTORY_STATUSES,
  historyDeclinedWebhook,
  historyWebhook,
  stateSyncWebhook,
  type AppContact,
  type HistoryMessage,
} from '#simulator/coexistence-webhooks';
import { isCoexistenceNumber } from '#simulator/coexistence-send';
import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { displayPhoneNumber } from '#simulator/ids';
import { digits } from '#simulator/routes/simulate-inbound';
import { businessNumber, type SimulatorState } from '#simulator/state';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = graphErrors.invalidParameter;
const conflict = (message: string) => new GraphError(409, 100, 'SimulatorException', message);

/** The body, a number on the WhatsApp Business app and the Cloud API (`is_on_biz_app`), not offboarded, and a webhook URL. */
async function coexistenceBody(state: SimulatorState, ctx: RouteContext, shape: string): Promise<{ body: Json; id: string }> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw invalid(`Body must be a JSON object ${shape}`);
  const id = digits(body.phone_number_id, 'phone_number_id');
  if (!isCoexistenceNumber(state, id))
    throw conflict(`${id} is not a coexistence number: POST /_simulate/numbers with coexistence: true, or Embedded Signup with coexistence: true`);
  if (state.coexistence.isOffboarded(id)) throw conflict(`${id} went back to the WhatsApp Business app alone (offboarded)`);
  if (!state.webhooks.hasUrl) throw conflict('No webhook URL configured (SimulatorOptions.webhookUrl or setWebhookUrl)');
  return { body, id };
}

const delivered = (result: { status: number | null; error?: string }) => ({
  ok: true,
  delivered_status: result.status,
  ...(result.error && { error: result.error }),
});

/** `POST /_simulate/coexistence/echo` `{ phone_number_id, to, text }`: the business types a message in the app; `smb_message_echoes` (docs/platform-coexistence.md §3.1). Answers `{ ok, wamid, delivered_status }`. */
export const simulateEcho =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const { body, id } = await coexistenceBody(state, ctx, '{ phone_number_id, to, text }');
    const to = digits(body.to, 'to');
    if (typeof body.text !== 'string' || !body.text) throw invalid('text must be a non-empty string');
    const { payload, echo } = echoWebhook(businessNumber(state, id), to, body.text);
    return ok({ wamid: echo.id, ...delivered(await state.webhooks.post(payload)) });
  };

function historyMessage(value: unknown, i: number): HistoryMessage {
  const where = `messages[${i}]`;
  if (!isObject(value)) throw invalid(`${where} must be an object { from? , to?, text?, timestamp, status? }`);
  if ((value.from === undefined) === (value.to === undefined)) throw invalid(`${where} takes from (the customer wrote it) or to (the business did), not both`);
  const customer = digits(value.from ?? value.to, value.from === undefined ? `${where}.to` : `${where}.from`);
  if (value.text !== undefined && (typeof value.text !== 'string' || !value.text))
    throw invalid(`${where}.text must be a non-empty string (leave it out for media)`);
  const timestamp = typeof value.timestamp === 'string' ? Number(value.timestamp) : value.timestamp;
  if (typeof timestamp !== 'number' || !Number.isInteger(timestamp) || timestamp <= 0) throw invalid(`${where}.timestamp must be Unix seconds`);
  const status = value.status ?? 'READ';
  if (typeof status !== 'string' || !HISTORY_STATUSES.includes(status)) throw invalid(`${where}.status must be one of ${HISTORY_STATUSES.join(', ')}`);
  return { customer, fromBusiness: value.to !== undefined, ...(value.text !== undefined && { text: value.text }), timestamp, status };
}

/**
 * `POST /_simulate/coexistence/history` `{ phone_number_id, messages: [{ from?, to?, text?, timestamp, status? }],
 * phase?, chunk_order?, progress?, declined? }`: one `history` webhook (§3.2) with these messages in
 * threads by customer: `from` a customer for theirs, `to` a customer for the business's own;
 * without `text` a `media_placeholder`. The chunk is phase 0, chunk 1, progress 100 unless given.
 * `declined: true` posts the 2593109 history error instead (the business turned sharing off).
 */
export const simulateHistory =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const { body, id } = await coexistenceBody(state, ctx, '{ phone_number_id, messages }');
    const number = businessNumber(state, id);
    if (body.declined === true) return ok(delivered(await state.webhooks.post(historyDeclinedWebhook(number))));
    if (!Array.isArray(body.messages) || !body.messages.length) throw invalid('messages must be a non-empty array');
    const messages = body.messages.map(historyMessage);
    const phase = body.phase ?? 0;
    if (phase !== 0 && phase !== 1 && phase !== 2) throw invalid('phase must be 0, 1 or 2');
    const whole = (value: unknown, fallback: number, min: number, max: number) => {
      const n = value ?? fallback;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw invalid(`chunk_order and progress must be integers (progress 0 to 100)`);
      return n;
    };
    const chunk = { phase, chunk_order: whole(body.chunk_order, 1, 1, Number.MAX_SAFE_INTEGER), progress: whole(body.progress, 100, 0, 100) } as const;
    return ok(delivered(await state.webhooks.post(historyWebhook(number, chunk, messages))));
  };

/** `POST /_simulate/coexistence/contacts` `{ phone_number_id, contacts: [{ phone, name?, action? }] }`: the app's contacts change; `smb_app_state_sync` (§3.3), `add` unless `action: remove`. */
export const simulateContacts =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const { body, id } = await coexistenceBody(state, ctx, '{ phone_number_id, contacts: [{ phone, name }] }');
    if (!Array.isArray(body.contacts) || !body.contacts.length) throw invalid('contacts must be a non-empty array');
    const contacts = body.contacts.map((c: unknown, i): AppContact => {
      if (!isObject(c)) throw invalid(`contacts[${i}] must be an object { phone, name, action? }`);
      const action = c.action ?? 'add';
      if (action !== 'add' && action !== 'remove') throw invalid(`contacts[${i}].action must be add or remove`);
      if (action === 'add' && (typeof c.name !== 'string' || !c.name.trim())) throw invalid(`contacts[${i}].name must be a non-empty string`);
      return { phone: digits(c.phone, `contacts[${i}].phone`), ...(action === 'add' && { name: c.name as string }), action };
    });
    return ok(delivered(await state.webhooks.post(stateSyncWebhook(businessNumber(state, id), contacts))));
  };

const REASONS = ['ACCOUNT_DISCONNECTED', 'BUSINESS_DOWNGRADE', 'CHANGE_NUMBER', 'COMPANION_INACTIVITY', 'PRIMARY_INACTIVITY', 'USER_RE_REGISTERED'];

/**
 * `POST /_simulate/coexistence/offboard` `{ phone_number_id, event?, reason?, initiated_by? }`: the
 * business goes back to the WhatsApp Business app alone. Posts `account_update` (§3.4):
 * `PARTNER_REMOVED` with the number and `disconnection_info` (default: `ACCOUNT_DISCONNECTED` by the
 * `USER`, who disconnected in the app), or `event: ACCOUNT_OFFBOARDED`. From then on the number's
 * sends answer 133010 (not registered) until it signs up again.
 */
export const simulateOffboard =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const { body, id } = await coexistenceBody(state, ctx, '{ phone_number_id, event?, reason?, initiated_by? }');
    const event = body.event ?? 'PARTNER_REMOVED';
    if (event !== 'PARTNER_REMOVED' && event !== 'ACCOUNT_OFFBOARDED') throw invalid('event must be PARTNER_REMOVED or ACCOUNT_OFFBOARDED');
    const reason = body.reason ?? 'ACCOUNT_DISCONNECTED';
    const initiatedBy = body.initiated_by ?? 'USER';
    if (typeof reason !== 'string' || !REASONS.includes(reason)) throw invalid(`reason must be one of ${REASONS.join(', ')}`);
    if (initiatedBy !== 'USER' && initiatedBy !== 'SYSTEM') throw invalid('initiated_by must be USER or SYSTEM');
    const registered = state.numbers.get(id);
    // Named as the number-quality webhook names it: the number's display digits.
    const phoneNumber = registered ? registered.display_phone_number.replace(/\D/g, '') : displayPhoneNumber(id);
    const value = event === 'PARTNER_REMOVED' ? { phone_number: phoneNumber, event, disconnection_info: { reason, initiated_by: initiatedBy } } : { event };
    state.coexistence.offboard(id);
    return ok(delivered(await state.webhooks.post(accountUpdateWebhook(businessNumber(state, id).wabaId, value))));
  };
