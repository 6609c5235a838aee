import { randomUUID } from 'node:crypto';
import { groupOf, postGroupWebhookLater } from '#simulator/group-access';
import { groupItems } from '#simulator/group-webhooks';
import { groupBody, settingsUpdate } from '#simulator/group-requests';
import { inviteLinkOf, type SimulatedGroup } from '#simulator/groups';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** The fields `GET /{group_id}?fields=` answers, in the order of the reference's sample (docs/platform-groups.md §1.3), native types. */
const INFO_FIELDS: Record<string, (group: SimulatedGroup) => unknown> = {
  subject: (g) => g.subject,
  creation_timestamp: (g) => g.createdAt,
  suspended: (g) => g.suspended,
  description: (g) => g.description,
  total_participant_count: (g) => g.participants.size,
  participants: (g) =>
    [...g.participants.values()].map((p) => ({
      wa_id: p.wa_id,
      ...(p.user_id !== undefined && { user_id: p.user_id }),
      ...(p.parent_user_id !== undefined && { parent_user_id: p.parent_user_id }),
      ...(p.username !== undefined && { username: p.username }),
    })),
  join_approval_mode: (g) => g.join_approval_mode,
};

/**
 * `GET /{version}/{group_id}?fields=…`: `messaging_product` and `id`, plus only the fields asked for
 * ("Specifying no fields … will just return the group ID and messaging product", §1A). Participants
 * and their count leave the business out. A group without a description has no `description`.
 */
export const getGroup =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const group = groupOf(state, ctx);
    const asked = (ctx.url.searchParams.get('fields') ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f && f !== 'id' && f !== 'messaging_product');
    const unknown = asked.find((f) => !(f in INFO_FIELDS));
    if (unknown) throw whatsappErrors.invalidParameter(`Tried accessing nonexisting field (${unknown}) on node type (WhatsAppGroup).`);
    const fields = Object.entries(INFO_FIELDS)
      .filter(([name]) => asked.includes(name))
      .map(([name, read]) => [name, read(group)] as const)
      .filter(([, value]) => value !== undefined);
    return ok({ messaging_product: 'whatsapp', id: group.id, ...Object.fromEntries(fields) });
  };

/**
 * `POST /{version}/{group_id}` `{ messaging_product, subject?, description? }`: `{ success: true }`,
 * then `group_settings_update` with each changed field's outcome (§1.4, §3.3).
 */
export const updateGroup =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = groupOf(state, ctx);
    const changed = settingsUpdate(await groupBody(ctx));
    if (changed.subject !== undefined) group.subject = changed.subject;
    if (changed.description !== undefined) group.description = changed.description;
    postGroupWebhookLater(state, group, 'group_settings_update', groupItems.settings(group, randomUUID(), changed));
    return ok({ success: true });
  };

/**
 * `DELETE /{version}/{group_id}` (no body): `{ success: true }`; every participant is removed, the
 * business included, and `group_lifecycle_update` (`group_delete`) follows (§1.5, §3.1). The id is
 * unknown from then on (131041).
 */
export const deleteGroup =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const group = groupOf(state, ctx);
    state.groups.delete(group);
    postGroupWebhookLater(state, group, 'group_lifecycle_update', groupItems.deleted(group, randomUUID()));
    return ok({ success: true });
  };

/** `GET /{version}/{group_id}/invite_link`: `{ messaging_product, invite_link }` (§1.6). */
export const getInviteLink =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok({ messaging_product: 'whatsapp', invite_link: inviteLinkOf(groupOf(state, ctx)) });

/** `POST /{version}/{group_id}/invite_link` `{ messaging_product }`: a new link; every earlier one stops working (§1.6). */
export const resetInviteLink =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = groupOf(state, ctx);
    await groupBody(ctx);
    return ok({ messaging_product: 'whatsapp', invite_link: state.groups.resetInviteLink(group) });
  };
