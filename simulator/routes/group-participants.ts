import { randomUUID } from 'node:crypto';
import { groupOf, postGroupWebhookLater } from '#simulator/group-access';
import { groupErrors, groupItemErrors } from '#simulator/group-errors';
import { groupItems } from '#simulator/group-webhooks';
import { groupBody, participantsToRemove } from '#simulator/group-requests';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';

/**
 * `DELETE /{version}/{group_id}/participants` `{ messaging_product, participants: [{ user } | { user_id }] }`
 * (1–8 entries, none twice: 131202). The named participants leave and can no longer join through
 * the invite link (docs/platform-groups.md §1.8, §1A). The answer, which Meta does not document:
 * `{ success: true }` when all were in the group; HTTP 206 with the 131201 "Request partially
 * succeeded" error when only some were (§1.8, §5); Graph error 131212 when none was (nothing is
 * posted then). A status interval later comes `group_participants_update` (`group_participants_remove`,
 * `initiated_by: business`, each named by its `input`), with the partial-failure shape of §3.2 when
 * some were not in the group.
 */
export const removeParticipants =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const group = groupOf(state, ctx);
    const named = participantsToRemove(await groupBody(ctx));
    const found = named.map((entry) => ({ entry, participant: state.groups.findParticipant(group, entry) }));
    const removed = found.filter((f) => f.participant !== undefined);
    if (removed.length === 0) throw groupErrors.notParticipant();
    for (const { participant } of removed) state.groups.removeParticipant(group, participant!.wa_id, true);
    const failed = found.filter((f) => f.participant === undefined).map((f) => f.entry.input);
    const item = groupItems.removed(
      group,
      randomUUID(),
      removed.map((f) => f.entry.input),
      failed,
    );
    postGroupWebhookLater(state, group, 'group_participants_update', item);
    if (failed.length === 0) return ok({ success: true });
    return { status: 206, body: { success: true, errors: [groupItemErrors.requestPartial()] } };
  };
