import { completeCreation, groupsNumber } from '#simulator/group-access';
import { groupErrors } from '#simulator/group-errors';
import { creationSettings, groupBody } from '#simulator/group-requests';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { encodeCursor, paginate } from '#simulator/paging';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * `POST /{version}/{phone_number_id}/groups` `{ messaging_product, subject, description?,
 * join_approval_mode? }`: answers `{ messaging_product, request_id }` only; the group is created
 * asynchronously, a status interval later, and announced by `group_lifecycle_update`
 * (`group_create`) with its id and invite link (docs/platform-groups.md §1.1, §3.1). While creation
 * is held (`POST /_simulate/groups/hold-creation`) the request waits until it is released. A
 * number's 10,001st live group fails in that webhook with 131211, as Meta's "create failed" example shows.
 */
export const createGroup =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const number = groupsNumber(state, ctx);
    const settings = creationSettings(await groupBody(ctx));
    const creation = state.groups.request(number.phoneNumberId, settings);
    if (!state.groups.park(creation)) state.webhooks.later(state.faults.current.status_interval_ms, () => void completeCreation(state, creation));
    return ok({ messaging_product: 'whatsapp', request_id: creation.requestId });
  };

/** "limit: Min: 1 | Default: 25 | Max: 1024" (§1A). */
const GROUP_PAGE_SIZES = { defaultLimit: 25, maxLimit: 1024 };

/**
 * `GET /{version}/{phone_number_id}/groups?limit=&after=&before=`: the number's live groups, oldest
 * first, as `{ data: { groups: [{ id, subject, created_at }] }, paging }` (§1.2: `data` is an object
 * holding `groups`). A cursor that names no live group is 131059; a `limit` outside 1–1024 is 100.
 */
export const listGroups =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const number = groupsNumber(state, ctx);
    const limit = ctx.url.searchParams.get('limit');
    if (limit !== null && limit !== '' && !(Number.isInteger(Number(limit)) && Number(limit) >= 1 && Number(limit) <= GROUP_PAGE_SIZES.maxLimit))
      throw whatsappErrors.invalidParameter(`Param limit must be an integer from 1 to ${GROUP_PAGE_SIZES.maxLimit}.`);
    const groups = state.groups.live(number.phoneNumberId);
    for (const name of ['after', 'before']) {
      const cursor = ctx.url.searchParams.get(name);
      if (cursor && !groups.some((g) => encodeCursor(g.id) === cursor)) throw groupErrors.invalidCursor();
    }
    const page = paginate(groups, ctx.url, GROUP_PAGE_SIZES);
    return ok({
      data: { groups: page.data.map((g) => ({ id: g.id, subject: g.subject, created_at: g.createdAt })) },
      ...(page.paging && { paging: page.paging }),
    });
  };
