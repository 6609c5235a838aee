import { randomBytes } from 'node:crypto';
import { appDataOf, historyChunks } from '#simulator/coexistence-app-data';
import { historyWebhook, stateSyncWebhook } from '#simulator/coexistence-webhooks';
import { SYNC_TYPES, type SyncType } from '#simulator/coexistence';
import { isCoexistenceNumber } from '#simulator/coexistence-send';
import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { businessNumber, type SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * The refusals of a sync request. Meta's page says "You can only perform this step once" and gives
 * no code; 2593107 (a repeated request) and 2593108 (past the 24-hour window) are the codes three
 * independent implementations quote (docs/platform-coexistence.md §2) — their wording is the
 * simulator's [INFERRED].
 */
const syncRefused = (code: number, details: string) =>
  new GraphError(400, code, 'OAuthException', `(#${code}) ${details}`, undefined, { messaging_product: 'whatsapp', details });

/**
 * `POST /{version}/{phone_number_id}/smb_app_data` `{ messaging_product, sync_type }`
 * (docs/platform-coexistence.md §2): answers `{ messaging_product, request_id }` (no `success`), then
 * posts what the business's app holds (simulator/coexistence-app-data.ts): `smb_app_state_sync` with
 * its contacts, or its chat history in `history` chunks, one status interval apart. Each sync type
 * once per onboarding, within 24 hours of it; a number not on the WhatsApp Business app, or one
 * that went back to it alone, is Graph's 100.
 */
export const requestAppData =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const id = ctx.params.phoneNumberId;
    if (!/^\d+$/.test(id)) throw graphErrors.unsupportedRequest('POST', id);
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    if (body?.messaging_product !== 'whatsapp') throw whatsappErrors.invalidParameter('Param messaging_product must be "whatsapp".');
    const type = body.sync_type as SyncType;
    if (!SYNC_TYPES.includes(type)) throw whatsappErrors.invalidParameter(`Param sync_type must be one of ${SYNC_TYPES.join(', ')}.`);
    if (!isCoexistenceNumber(state, id) || state.coexistence.isOffboarded(id))
      throw whatsappErrors.invalidParameter('This phone number is not onboarded from the WhatsApp Business app (coexistence).');
    const outcome = state.coexistence.requestSync(id, type);
    if (outcome === 'repeated') throw syncRefused(2593107, `The ${type} synchronization was already requested for this phone number.`);
    if (outcome === 'late') throw syncRefused(2593108, 'Synchronization request can only be made within 24 hours of onboarding.');

    const number = businessNumber(state, id);
    const data = appDataOf(id);
    const payloads =
      type === 'smb_app_state_sync'
        ? [stateSyncWebhook(number, data.contacts)]
        : historyChunks(data.history).map(({ chunk, messages }) => historyWebhook(number, chunk, messages));
    const interval = state.faults.current.status_interval_ms;
    payloads.forEach((payload, i) => state.webhooks.later(interval * (i + 1), () => void state.webhooks.post(payload)));
    return ok({ messaging_product: 'whatsapp', request_id: randomBytes(12).toString('hex') });
  };
