import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** Whether a number is on the WhatsApp Business app as well (`is_on_biz_app`). */
export const isCoexistenceNumber = (state: SimulatorState, phoneNumberId: string): boolean => state.numbers.get(phoneNumberId)?.is_on_biz_app === true;

/**
 * A send from a coexistence number: after offboarding the number is no longer registered to the
 * Cloud API (133010, "Account not registered"); while on both, past 20 messages a second the
 * throughput error 130429.
 */
export function checkCoexistenceSend(state: SimulatorState, phoneNumberId: string): void {
  if (state.coexistence.isOffboarded(phoneNumberId)) throw whatsappErrors.accountError(133010);
  if (isCoexistenceNumber(state, phoneNumberId) && !state.coexistence.takeSend(phoneNumberId)) throw whatsappErrors.rateLimitHit();
}
