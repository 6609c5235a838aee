import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';

/** `GET /_simulate/faults`: the current fault settings. */
export const getFaults = (state: SimulatorState) => (): JsonResponse => ok(state.faults.current);

/** `POST /_simulate/faults`: changes the given settings (all or nothing) and answers the new ones. */
export const updateFaults =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    state.faults.update((await ctx.readJson()) ?? {});
    return ok(state.faults.current);
  };

/** `DELETE /_simulate/faults`: back to no faults and the simulator's own status interval. */
export const resetFaults = (state: SimulatorState) => (): JsonResponse => {
  state.faults.reset();
  return ok(state.faults.current);
};
