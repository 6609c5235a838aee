import { numbersByDisplay, updateNumberDetails } from '#shared/data/business-number';
import { detailsFromPlatform, numbersOfHolder } from '#shared/domain/numbers/numbers';
import { logger } from '#shared/logger';
import { fetchPhoneNumber } from '#shared/platform/graph-client';
import { accessTokenFor } from '#shared/platform/secrets';
import type { NumberQualityUpdate } from '#shared/platform/webhook-payload';
import { nowIso } from '#shared/time';

/**
 * `phone_number_quality_update` (contract §17): the push names the number by its display number
 * and carries the new messaging limit, not the quality rating, so the number is read again from
 * the platform for its rating. The item's change is announced as `number.updated` by the table's
 * stream. A platform that does not answer still leaves the pushed limit recorded. Only the numbers
 * of the workspace that holds the account are touched (contract §22).
 */
export async function recordQualityUpdate(update: NumberQualityUpdate): Promise<void> {
  const numbers = await numbersOfHolder(update.wabaId, numbersByDisplay(update.wabaId, update.displayPhoneNumber));
  if (!numbers.length) logger.warn('Quality update for an unknown number', { wabaId: update.wabaId, display: update.displayPhoneNumber });
  for (const number of numbers) {
    let rated = {};
    try {
      const { quality_rating, throughput_mps } = detailsFromPlatform(await fetchPhoneNumber(number.id, await accessTokenFor(number.workspace_id)));
      rated = { quality_rating, throughput_mps };
    } catch (error) {
      logger.warn('Number read after a quality update failed', { phoneNumberId: number.id, error: (error as Error).message });
    }
    await updateNumberDetails(number.workspace_id, number.id, { ...rated, messaging_limit: update.limit ?? number.messaging_limit, updated_at: nowIso() });
  }
}
