import { GraphError } from '#simulator/graph-error';
import { controlledGroup } from '#simulator/group-access';
import { groupErrors } from '#simulator/group-errors';
import { controlBody } from '#simulator/group-requests';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { newWamid } from '#simulator/ids';
import { digits, MEDIA_TYPES, messageBody } from '#simulator/routes/simulate-inbound';
import { businessNumber, type SimulatorState } from '#simulator/state';
import { inboundWebhook, unixSeconds, type InboundMessage } from '#simulator/webhook-payloads';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** What a participant may post to a group in the simulator; anything else the platform reports as `unsupported`. */
const TYPES = ['text', ...MEDIA_TYPES, 'location', 'contacts', 'reaction', 'unsupported'];

/** An unsupported message from a group (a poll, …): MWRS `groups.groups-messaging__receive_unsupported_group_message.json`. */
const UNSUPPORTED = {
  errors: [
    {
      code: 130501,
      message: 'Message type is not currently supported',
      title: 'Unsupported message type',
      error_data: { details: 'Message type is not currently supported' },
    },
  ],
};

/**
 * `POST /_simulate/groups/{group_id}/messages` `{ from, type?, text?, <type>? }`: a participant's
 * message to the group reaches the business, as `messages` with the group's id in
 * `messages[].group_id` and the sender in `contacts[]` and `from` (docs/platform-groups.md §4; MWRS
 * `groups.groups-messaging__receive_group_message.json`, key order included). `type` defaults to
 * text; the others take the platform's object under their name, as `POST /_simulate/inbound` does;
 * `unsupported` carries the groups' 130501 error. Only a participant of a live, unsuspended group
 * can post. Answers `{ ok, wamid, delivered_status }` once the receiver has answered.
 */
export const simulateGroupMessage =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = controlledGroup(state, ctx);
    const body = await controlBody(ctx);
    const from = digits(body.from, 'from');
    const participant = group.participants.get(from);
    if (!participant) throw whatsappErrors.invalidParameter('from must be a participant of the group');
    if (group.suspended) throw groupErrors.suspended();
    const type = body.type ?? 'text';
    if (typeof type !== 'string' || !TYPES.includes(type)) throw whatsappErrors.invalidParameter(`type must be one of ${TYPES.join(', ')}`);
    if (!state.webhooks.hasUrl)
      throw new GraphError(409, 100, 'SimulatorException', 'No webhook URL configured (SimulatorOptions.webhookUrl or setWebhookUrl)');

    const wamid = newWamid(from, 'inbound');
    const message: InboundMessage = {
      from,
      ...(participant.user_id !== undefined && { from_user_id: participant.user_id }),
      group_id: group.id,
      id: wamid,
      timestamp: unixSeconds(),
      ...(type === 'unsupported' ? UNSUPPORTED : messageBody(state, type, body)),
      type,
    };
    const sender = { name: participant.name, waId: from, ...(participant.user_id !== undefined && { userId: participant.user_id }) };
    // Not noted for read receipts: marking a group message as read is not supported (§0).
    const result = await state.webhooks.post(inboundWebhook(businessNumber(state, group.phoneNumberId), sender, message));
    return ok({ ok: true, wamid, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
