import { callingErrors } from '#simulator/calling-errors';
import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { platformWaId } from '#simulator/ids';
import type { SimulatorState } from '#simulator/state';

/**
 * `GET /{version}/{phone_number_id}/call_permissions?user_wa_id=<WA_ID>` (or `?recipient=<BSUID>`;
 * docs/platform-calling.md §2.3, Meta "Obtain user call permissions"): the pair's `permission`
 * (`no_permission`, `temporary` with `expiration_time`, `permanent`) and the two `actions` with their
 * limits. An uncallable or unknown user is `no_permission`, not an error; past 100 look-ups in one
 * second the number gets 613.
 */
export const getCallPermissions =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const id = ctx.params.phoneNumberId;
    if (!/^\d+$/.test(id)) throw graphErrors.unsupportedRequest('GET', id);
    const waId = ctx.url.searchParams.get('user_wa_id');
    const userId = ctx.url.searchParams.get('recipient');
    if (!waId && !userId) throw callingErrors.invalidParameter('The parameter user_wa_id (or recipient) is required.');
    const digits = waId?.replace(/\D/g, '');
    if (waId && (!digits || digits.length < 5 || digits.length > 15)) throw callingErrors.invalidParameter('Param user_wa_id must be a phone number.');
    if (!state.callPermissions.lookup(id)) throw callingErrors.permissionLookupLimit();
    return ok(state.callPermissions.view(id, digits ? platformWaId(digits) : userId!));
  };
