/**
 * A business that went back to the WhatsApp Business app alone (contract §23): the platform's
 * `account_update` (`PARTNER_REMOVED` naming the number, or `ACCOUNT_OFFBOARDED` for the account)
 * marks its shared numbers `app_only`, which the number shows (`number.updated`). Its sends are
 * then refused by the platform, with the platform's error on each message. Only the numbers of the
 * workspace that holds the account are touched (contract §22).
 */
import { numbersByDisplay, numbersOfAccount, updateNumberDetails } from '#shared/data/business-number';
import { numbersOfHolder } from '#shared/domain/numbers/numbers';
import { logger } from '#shared/logger';
import type { AppOffboarding } from '#shared/platform/coexistence-webhooks';
import { nowIso } from '#shared/time';

export async function recordOffboarding(update: AppOffboarding): Promise<void> {
  const found = update.displayPhoneNumber ? numbersByDisplay(update.wabaId, update.displayPhoneNumber) : numbersOfAccount(update.wabaId);
  const shared = (await numbersOfHolder(update.wabaId, found)).filter((number) => number.coexistence?.status === 'shared');
  if (!shared.length) logger.warn('Offboarding for no shared number', { wabaId: update.wabaId, display: update.displayPhoneNumber });
  for (const number of shared)
    await updateNumberDetails(number.workspace_id, number.id, {
      coexistence: { status: 'app_only', since: update.at, reason: update.reason },
      updated_at: nowIso(),
    });
}
