import { groupOf, postGroupWebhookLater } from '#simulator/group-access';
import { groupErrors, groupItemErrors, type GroupItemError } from '#simulator/group-errors';
import { groupItems } from '#simulator/group-webhooks';
import { groupBody, joinRequestIds } from '#simulator/group-requests';
import type { GroupUser } from '#simulator/groups';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { paginate } from '#simulator/paging';
import type { SimulatorState } from '#simulator/state';

const JOIN_REQUEST_PAGE_SIZES = { defaultLimit: 25, maxLimit: 1024 };

/**
 * `GET /{version}/{group_id}/join_requests`: the open requests, oldest first,
 * `{ data: [{ join_request_id, wa_id, creation_timestamp }], paging }` (docs/platform-groups.md §1.7,
 * §1A: `creation_timestamp` an integer; business-scoped ids when known, as the BSUID page adds them).
 */
export const listJoinRequests =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const group = groupOf(state, ctx);
    const requests = [...group.joinRequests.values()].map((r) => ({ id: r.join_request_id, request: r }));
    const page = paginate(requests, ctx.url, JOIN_REQUEST_PAGE_SIZES);
    return ok({
      data: page.data.map(({ request: r }) => ({
        join_request_id: r.join_request_id,
        wa_id: r.wa_id,
        creation_timestamp: r.creation_timestamp,
        ...(r.user_id !== undefined && { user_id: r.user_id }),
        ...(r.parent_user_id !== undefined && { parent_user_id: r.parent_user_id }),
        ...(r.username !== undefined && { username: r.username }),
      })),
      ...(page.paging && { paging: page.paging }),
    });
  };

interface Failure {
  join_request_id: string;
  errors: GroupItemError[];
}

/**
 * The answer to approve or reject: HTTP 200 when every request was handled; 206 with
 * `failed_join_requests` and the 131201 "Request partially succeeded" error when some were not
 * (the approve answer of §1.7); when none was, the first failure's Graph error.
 */
function answer(doneKey: 'approved_join_requests' | 'rejected_join_requests', done: string[], failed: Failure[]): JsonResponse {
  if (done.length === 0) throw failed[0].errors[0].code === 131204 ? groupErrors.participantOverlimit() : groupErrors.joinRequestMissing();
  if (failed.length === 0) return ok({ messaging_product: 'whatsapp', [doneKey]: done });
  return { status: 206, body: { messaging_product: 'whatsapp', [doneKey]: done, failed_join_requests: failed, errors: [groupItemErrors.requestPartial()] } };
}

/**
 * `POST /{version}/{group_id}/join_requests` `{ messaging_product, join_requests: [id, …] }`: the
 * requesters join; a request that is not open fails with 131213, one the full group cannot take with
 * 131204. The joined arrive in one `group_participants_update` (`group_participants_add`, `reason:
 * invite_link`, each with `input` and `wa_id`) a status interval later.
 */
export const approveJoinRequests =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = groupOf(state, ctx);
    const ids = joinRequestIds(await groupBody(ctx));
    const approved: string[] = [];
    const joined: GroupUser[] = [];
    const failed: Failure[] = [];
    for (const id of ids) {
      const outcome = state.groups.approve(group, id);
      if (outcome === 'missing') failed.push({ join_request_id: id, errors: [groupItemErrors.joinRequestMissing()] });
      else if (outcome === 'full') failed.push({ join_request_id: id, errors: [groupItemErrors.participantOverlimit()] });
      else {
        approved.push(id);
        joined.push(outcome);
      }
    }
    if (joined.length > 0) postGroupWebhookLater(state, group, 'group_participants_update', groupItems.approved(group, joined));
    return answer('approved_join_requests', approved, failed);
  };

/**
 * `DELETE /{version}/{group_id}/join_requests` `{ messaging_product, join_requests: [id, …] }`:
 * `{ messaging_product, rejected_join_requests }`; no webhook ("Reject … Webhook: None", §1A). The
 * customers may ask again.
 */
export const rejectJoinRequests =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = groupOf(state, ctx);
    const ids = joinRequestIds(await groupBody(ctx));
    const rejected = ids.filter((id) => state.groups.dropRequest(group, id) !== undefined);
    const failed = ids.filter((id) => !rejected.includes(id)).map((id) => ({ join_request_id: id, errors: [groupItemErrors.joinRequestMissing()] }));
    return answer('rejected_join_requests', rejected, failed);
  };
