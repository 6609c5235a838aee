import type { DeliveryResult } from '#simulator/platform-webhooks';
import { graphErrors } from '#simulator/graph-error';
import { groupErrors } from '#simulator/group-errors';
import { groupItems, groupWebhook, type GroupField } from '#simulator/group-webhooks';
import { looksLikeGroupId, newGroupId, type CreationRequest, type SimulatedGroup } from '#simulator/groups';
import type { RouteContext } from '#simulator/http';
import { tokenReaches } from '#simulator/routes/embedded-signup';
import { businessNumber, type SimulatorState } from '#simulator/state';
import type { BusinessNumber } from '#simulator/webhook-payloads';

/**
 * How the group routes find what a request names, and how their webhooks go out. A group is
 * found only while it lives and only by a token that reaches its number's business account: any
 * other id, a deleted group and another business's group are all 131041 "Group unknown"
 * ("… either because it doesn't exist or you are not a member", docs/platform-groups.md §5).
 */

/** The business number of `/{phone_number_id}/groups`: numeric, and reached by the token, else Graph's 100/33. */
export function groupsNumber(state: SimulatorState, ctx: RouteContext): BusinessNumber {
  const phoneNumberId = ctx.params.phoneNumberId;
  const number = businessNumber(state, phoneNumberId);
  if (!/^\d+$/.test(phoneNumberId) || !tokenReaches(state, ctx, number.wabaId)) throw graphErrors.unsupportedRequest(ctx.method, phoneNumberId);
  return number;
}

/** The live group `ctx.params.groupId` names, if the request's token reaches it; an id not shaped like a group's is Graph's 100/33, as for any object. */
export function groupOf(state: SimulatorState, ctx: RouteContext): SimulatedGroup {
  const group = state.groups.get(ctx.params.groupId);
  if (!group && !looksLikeGroupId(ctx.params.groupId)) throw graphErrors.unsupportedRequest(ctx.method, ctx.params.groupId);
  if (!group || group.deleted || !tokenReaches(state, ctx, businessNumber(state, group.phoneNumberId).wabaId)) throw groupErrors.unknown();
  return group;
}

/** The live group a `/_simulate/groups/{group_id}/…` control names (no token: the simulator's own routes). */
export function controlledGroup(state: SimulatorState, ctx: RouteContext): SimulatedGroup {
  const group = state.groups.get(ctx.params.groupId);
  if (!group || group.deleted) throw groupErrors.unknown();
  return group;
}

/** The group a number may send to now: one of its own live groups, not suspended (131041, else 131207). */
export function sendableGroup(state: SimulatorState, phoneNumberId: string, groupId: string): SimulatedGroup {
  const group = state.groups.get(groupId);
  if (!group || group.deleted || group.phoneNumberId !== phoneNumberId) throw groupErrors.unknown();
  if (group.suspended) throw groupErrors.suspended();
  return group;
}

/** Posts one group webhook now (signed, retried), for the group's number. */
export const postGroupWebhook = (state: SimulatorState, group: SimulatedGroup, field: GroupField, item: Record<string, unknown>): Promise<DeliveryResult> =>
  state.webhooks.post(groupWebhook(businessNumber(state, group.phoneNumberId), field, item));

/** Posts it a status interval from now, as the platform reports the outcome of a Graph request. */
export function postGroupWebhookLater(state: SimulatorState, group: SimulatedGroup, field: GroupField, item: Record<string, unknown>): void {
  state.webhooks.later(state.faults.current.status_interval_ms, () => void postGroupWebhook(state, group, field, item));
}

/**
 * Completes a creation request: the group is created and `group_create` posted with its id and
 * invite link; a number that already has 10,000 live groups gets the failed `group_create` (131211).
 */
export function completeCreation(state: SimulatorState, creation: CreationRequest): Promise<DeliveryResult> {
  const number = businessNumber(state, creation.phoneNumberId);
  const outcome = state.groups.complete(creation);
  const item =
    'group' in outcome ? groupItems.created(outcome.group, creation.requestId) : groupItems.createFailed(creation, newGroupId(creation.phoneNumberId));
  return state.webhooks.post(groupWebhook(number, 'group_lifecycle_update', item));
}
