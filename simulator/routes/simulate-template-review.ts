import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * `POST /_simulate/template-review` `{ delay_ms, outcome }`: how templates created or edited from
 * now on are reviewed: `outcome` (`APPROVED` or `REJECTED`) after `delay_ms`, or, with
 * `delay_ms: null`, only on request (`POST /_simulate/template-status`). Answers the settings.
 */
export const updateTemplateReview =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = ((await ctx.readJson()) ?? {}) as Record<string, unknown>;
    const delayMs = body.delay_ms === undefined ? state.templateReview.delayMs : body.delay_ms;
    const outcome = body.outcome ?? state.templateReview.outcome;
    if (delayMs !== null && (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0))
      throw whatsappErrors.invalidParameter('delay_ms must be a number of milliseconds, or null');
    if (outcome !== 'APPROVED' && outcome !== 'REJECTED') throw whatsappErrors.invalidParameter('outcome must be APPROVED or REJECTED');
    state.templateReview = { delayMs, outcome };
    return ok({ delay_ms: delayMs, outcome });
  };
