import { completeCreation, controlledGroup, postGroupWebhook } from '#simulator/group-access';
import { groupErrors } from '#simulator/group-errors';
import { groupItems } from '#simulator/group-webhooks';
import { controlBody } from '#simulator/group-requests';
import { inviteLinkOf, type GroupUser, type JoinOutcome, type SimulatedGroup } from '#simulator/groups';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { DeliveryResult } from '#simulator/platform-webhooks';
import { digits } from '#simulator/routes/simulate-inbound';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

const invalid = whatsappErrors.invalidParameter;
const delivery = (result: DeliveryResult) => ({ delivered_status: result.status, ...(result.error && { error: result.error }) });

/**
 * `POST /_simulate/groups/hold-creation` `{ hold: boolean }`: while held, accepted group creations
 * get no webhook (and no group); releasing completes the held ones at once, oldest first, each with
 * its `group_lifecycle_update`. Answers `{ ok, hold, released: [{ request_id, delivered_status }] }`.
 */
export const holdGroupCreation =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const { hold } = await controlBody(ctx);
    if (typeof hold !== 'boolean') throw invalid('hold must be a boolean');
    const released = [];
    for (const creation of state.groups.hold(hold)) released.push({ request_id: creation.requestId, ...delivery(await completeCreation(state, creation)) });
    return ok({ ok: true, hold, released });
  };

/** `GET /_simulate/groups?phone_number_id=`: every group (deleted ones too) with its participants and open join requests, and the held creations. */
export const listSimulatedGroups =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const phoneNumberId = ctx.url.searchParams.get('phone_number_id') || undefined;
    const view = (g: SimulatedGroup) => ({
      id: g.id,
      phone_number_id: g.phoneNumberId,
      subject: g.subject,
      ...(g.description !== undefined && { description: g.description }),
      join_approval_mode: g.join_approval_mode,
      invite_link: inviteLinkOf(g),
      participants: [...g.participants.values()],
      join_requests: [...g.joinRequests.values()],
      suspended: g.suspended,
      deleted: g.deleted,
      created_at: g.createdAt,
    });
    const held = state.groups.heldRequests().filter((c) => phoneNumberId === undefined || c.phoneNumberId === phoneNumberId);
    return ok({
      data: state.groups.of(phoneNumberId).map(view),
      holding: state.groups.holdsCreation,
      held: held.map((c) => ({ request_id: c.requestId, phone_number_id: c.phoneNumberId, subject: c.subject })),
    });
  };

/** The customer a control names: `wa_id` (digits), with `name`, `user_id`, `parent_user_id`, `username` when given. */
function customer(body: Record<string, unknown>): GroupUser {
  const waId = digits(body.wa_id, 'wa_id');
  for (const field of ['name', 'user_id', 'parent_user_id', 'username']) {
    if (body[field] !== undefined && (typeof body[field] !== 'string' || !body[field])) throw invalid(`${field} must be a non-empty string`);
  }
  const optional = (field: string) => (typeof body[field] === 'string' ? { [field]: body[field] } : {});
  return {
    wa_id: waId,
    name: (body.name as string | undefined) ?? `Customer ${waId.slice(-4)}`,
    ...optional('user_id'),
    ...optional('parent_user_id'),
    ...optional('username'),
  };
}

const REFUSALS: Record<Extract<JoinOutcome, { kind: 'refused' }>['why'], () => Error> = {
  member: () => invalid('The customer is already a participant of the group'),
  pending: () => invalid('The customer already has an open join request for the group'),
  removed: () => invalid('The business removed the customer: they can no longer join through the invite link'),
  full: () => groupErrors.participantOverlimit(),
  stale_link: () => invalid('The invite link was reset: it no longer joins the group'),
};

/**
 * `POST /_simulate/groups/{group_id}/join` `{ wa_id, name?, user_id?, parent_user_id?, username?, invite_link? }`:
 * a customer opens the invite link (`invite_link`, else the current one). With `auto_approve` they
 * join: `group_participants_add`, `reason: invite_link`; with `approval_required` a join request is
 * opened: `group_join_request_created` (docs/platform-groups.md §3.2). A 9th participant is refused
 * with 131204, nothing posted.
 */
export const simulateGroupJoin =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = controlledGroup(state, ctx);
    const body = await controlBody(ctx);
    if (body.invite_link !== undefined && typeof body.invite_link !== 'string') throw invalid('invite_link must be a string');
    const outcome = state.groups.join(group, customer(body), body.invite_link);
    if (outcome.kind === 'refused') throw REFUSALS[outcome.why]();
    if (outcome.kind === 'joined') {
      return ok({
        ok: true,
        joined: true,
        ...delivery(await postGroupWebhook(state, group, 'group_participants_update', groupItems.joined(group, outcome.user))),
      });
    }
    const item = groupItems.joinRequest(group, outcome.request, 'group_join_request_created');
    return ok({
      ok: true,
      joined: false,
      join_request_id: outcome.request.join_request_id,
      ...delivery(await postGroupWebhook(state, group, 'group_participants_update', item)),
    });
  };

/**
 * `POST /_simulate/groups/{group_id}/leave` `{ wa_id }`: a participant leaves (`group_participants_remove`,
 * `initiated_by: participant`); a customer with an open join request withdraws it instead
 * (`group_join_request_revoked`).
 */
export const simulateGroupLeave =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = controlledGroup(state, ctx);
    const waId = digits((await controlBody(ctx)).wa_id, 'wa_id');
    const participant = group.participants.get(waId);
    if (participant) {
      state.groups.removeParticipant(group, waId, false);
      return ok({ ok: true, left: true, ...delivery(await postGroupWebhook(state, group, 'group_participants_update', groupItems.left(group, participant))) });
    }
    const request = [...group.joinRequests.values()].find((r) => r.wa_id === waId);
    if (!request) throw invalid('The customer is not a participant of the group and has no open join request');
    state.groups.dropRequest(group, request.join_request_id);
    const item = groupItems.joinRequest(group, request, 'group_join_request_revoked');
    return ok({ ok: true, left: false, ...delivery(await postGroupWebhook(state, group, 'group_participants_update', item)) });
  };

/**
 * `POST /_simulate/groups/{group_id}/suspend` `{ suspended: boolean }`: the platform suspends the
 * group or clears the suspension: `group_status_update` (`group_suspend` / `group_suspend_cleared`,
 * §3.4), posted only when the state changes. A suspended group shows `suspended: true` and takes no
 * messages (131207).
 */
export const simulateGroupSuspend =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = controlledGroup(state, ctx);
    const { suspended } = await controlBody(ctx);
    if (typeof suspended !== 'boolean') throw invalid('suspended must be a boolean');
    if (group.suspended === suspended) return ok({ ok: true, suspended, changed: false });
    group.suspended = suspended;
    return ok({ ok: true, suspended, changed: true, ...delivery(await postGroupWebhook(state, group, 'group_status_update', groupItems.status(group))) });
  };
