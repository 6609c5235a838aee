import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';

/** `GET /_simulate/messages?to=<digits>`: accepted send requests (to that number, or all), oldest first. */
export const listSentMessages =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const to = ctx.url.searchParams.get('to');
    return ok({ data: state.sent.list(to || undefined) });
  };

/** `DELETE /_simulate/messages`: forgets every recorded send request. */
export const clearSentMessages = (state: SimulatorState) => (): JsonResponse => {
  state.sent.clear();
  return ok({ ok: true });
};

/** `GET /_simulate/read-receipts`: read receipts accepted (with `typing` when they showed the typing indicator), oldest first. */
export const listReadReceipts = (state: SimulatorState) => (): JsonResponse => ok({ data: state.reads.list() });
