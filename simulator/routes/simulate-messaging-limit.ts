import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** The limits the platform documents: 250, 2,000, 10,000, 100,000, or -1 for unlimited. */
const LIMITS = [250, 2000, 10_000, 100_000, -1];

const tierOf = (limit: number) => (limit < 0 ? 'TIER_UNLIMITED' : limit >= 1000 ? `TIER_${limit / 1000}K` : `TIER_${limit}`);

/**
 * `POST /_simulate/messaging-limit` `{ waba_id, limit }`: the business portfolio's messaging limit
 * changes (every number of the account answers the new tier from now on), and the platform pushes
 * `business_capability_update` with `max_daily_conversations_per_business` to the account's
 * webhooks (Meta, "business_capability_update webhook reference"; docs/platform-payloads.md).
 */
export const simulateMessagingLimit =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = ((await ctx.readJson()) ?? {}) as Record<string, unknown>;
    const wabaId = body.waba_id;
    const numbers = [...state.numbers.values()].filter((n) => n.wabaId === wabaId);
    if (typeof wabaId !== 'string' || !numbers.length) throw whatsappErrors.invalidParameter('waba_id must name the account of a registered number');
    if (typeof body.limit !== 'number' || !LIMITS.includes(body.limit)) throw whatsappErrors.invalidParameter(`limit must be one of ${LIMITS.join(', ')}`);
    for (const number of numbers) number.messaging_limit_tier = tierOf(body.limit);
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'business_capability_update',
              value: { max_daily_conversations_per_business: body.limit, max_phone_numbers_per_business: 20, max_phone_numbers_per_waba: 20 },
            },
          ],
        },
      ],
    };
    const result = await state.webhooks.post(payload);
    return ok({ ok: true, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
