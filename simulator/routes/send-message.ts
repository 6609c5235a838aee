import { accessTokenOf } from '#simulator/auth';
import { graphErrors } from '#simulator/graph-error';
import { sendableGroup } from '#simulator/group-access';
import { scheduleGroupStatuses } from '#simulator/group-statuses';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { newWamid } from '#simulator/ids';
import { parseSendRequest } from '#simulator/message-request';
import { businessNumber, type SimulatorState } from '#simulator/state';
import { scheduleStatuses } from '#simulator/statuses';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { checkCoexistenceSend } from '#simulator/coexistence-send';
import { countCallPermissionRequest } from '#simulator/call-permission-send';

/** Longer than any client waits for a send's answer. */
const HELD_ANSWER_MS = 120_000;

/**
 * `POST /{version}/{phone_number_id}/messages`: validates like the Cloud API, records the accepted request,
 * answers its `wamid.` id and schedules its status webhooks. Injected faults (429 / 500) are decided after
 * the body is parsed and before it is validated; a refused request is neither recorded nor reported. A
 * `timeout` fault is decided then too, but the request is accepted, recorded and reported as usual: only its answer never comes.
 * The pair rate limit (`pair_limit_ms`) is checked once the recipient is known. A body with `status`
 * is a read receipt (simulator/read-receipts.ts), answered `{ success: true }`. A send with
 * `recipient_type: "group"` goes to a group of this number (simulator/group-send.ts), is answered
 * with the group id as `input` and `wa_id`, and reported as docs/platform-groups.md §2.1 shows (simulator/group-statuses.ts).
 */
export const sendMessage =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const phoneNumberId = ctx.params.phoneNumberId;
    // Phone number ids are numeric on the platform; anything else is an object that does not exist.
    if (!/^\d+$/.test(phoneNumberId)) throw graphErrors.unsupportedRequest('POST', phoneNumberId);
    const body = await ctx.readJson();
    // A read receipt (with a typing indicator) shares the path: it carries `status`, not a message.
    if (typeof body === 'object' && body !== null && 'status' in body) {
      state.reads.mark(phoneNumberId, body);
      return ok({ success: true });
    }

    // A number back on the WhatsApp Business app alone is not registered; one on both sends 20 a second (docs/platform-coexistence.md).
    checkCoexistenceSend(state, phoneNumberId);
    const fault = state.faults.nextSendFault();
    if (fault === 'rate_limit') throw whatsappErrors.rateLimitHit();
    if (fault === 'server_error') throw whatsappErrors.somethingWentWrong();
    if (fault === 'account_error') throw whatsappErrors.accountError(state.faults.current.account_error_code);
    if (fault === 'pair_limit') throw whatsappErrors.pairRateLimitHit();

    const request = parseSendRequest(body, state.created.of(businessNumber(state, phoneNumberId).wabaId));
    // A call permission request: calling enabled, within its limits (docs/platform-calling.md §2.1).
    countCallPermissionRequest(state, phoneNumberId, request, body);
    // A group send goes to one of the number's live groups, not a suspended one (docs/platform-groups.md §2, §5).
    const group = request.recipientType === 'group' ? sendableGroup(state, phoneNumberId, request.waId) : undefined;
    const pairInterval = state.faults.current.pair_limit_ms;
    const lastToPair = state.sent.lastAcceptedAt(phoneNumberId, request.waId);
    if (pairInterval > 0 && lastToPair !== undefined && Date.now() - lastToPair < pairInterval) throw whatsappErrors.pairRateLimitHit();
    const wamid = newWamid(request.waId);
    state.sent.add({
      wamid,
      phone_number_id: phoneNumberId,
      to: request.waId,
      type: request.type,
      ...(request.template && { template: request.template }),
      ...(request.text && { text: request.text }),
      ...(request.biz_opaque_callback_data !== undefined && { biz_opaque_callback_data: request.biz_opaque_callback_data }),
      received_at: new Date().toISOString(),
      request: body,
      access_token: accessTokenOf(ctx) ?? '',
    });
    if (group) {
      scheduleGroupStatuses(state.webhooks, state.faults, {
        number: businessNumber(state, phoneNumberId),
        wamid,
        groupId: group.id,
        participants: [...group.participants.values()],
        templateCategory: request.resolvedTemplate?.category,
        bizOpaqueCallbackData: request.biz_opaque_callback_data,
        failCode: state.faults.failedStatusCode(),
      });
    } else {
      scheduleStatuses(state.webhooks, state.faults, {
        number: businessNumber(state, phoneNumberId),
        wamid,
        waId: request.waId,
        ...(request.userId && { userId: request.userId }),
        pricing: state.pricing.of(phoneNumberId, request.waId, request.resolvedTemplate?.category.toLowerCase() ?? 'service'),
        type: request.type,
        bizOpaqueCallbackData: request.biz_opaque_callback_data,
        failCode: state.faults.failedStatusCode(),
      });
    }
    // Accepted and reported, but the answer is held until the client gives up (an ambiguous send).
    if (fault === 'timeout') await new Promise((resolve) => setTimeout(resolve, HELD_ANSWER_MS).unref());
    return ok({
      messaging_product: 'whatsapp',
      // Sent by user id alone: the platform answers `user_id` and no `wa_id` ("Business-scoped user IDs", "Send message response").
      contacts: [request.userId === request.waId ? { input: request.to, user_id: request.userId } : { input: request.to, wa_id: request.waId }],
      // The platform reports `message_status` for template messages only; a held one is not sent until reported.
      messages: [
        { id: wamid, ...(request.type === 'template' && { message_status: state.faults.holdsForQuality() ? 'held_for_quality_assessment' : 'accepted' }) },
      ],
    });
  };
