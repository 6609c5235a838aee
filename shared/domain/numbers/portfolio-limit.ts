import { numbersOfAccount, updateNumberDetails } from '#shared/data/business-number';
import { tierOfCustomers } from '#shared/domain/numbers/messaging-limit';
import { numbersOfHolder } from '#shared/domain/numbers/numbers';
import { logger } from '#shared/logger';
import type { PortfolioLimitUpdate } from '#shared/platform/webhook-payload';
import { nowIso } from '#shared/time';

/**
 * `business_capability_update` (contract §21): the portfolio's new messaging limit applies to
 * every number of the business account in the workspace that holds it (contract §22; the platform
 * names the account, not the portfolio; an account belongs to one portfolio). Each number item's change is
 * announced as `number.updated` by the table stream; a limit it already shows changes nothing.
 */
export async function recordPortfolioLimit(update: PortfolioLimitUpdate): Promise<void> {
  const numbers = await numbersOfHolder(update.wabaId, numbersOfAccount(update.wabaId));
  if (!numbers.length) logger.warn('Messaging limit for an unknown business account', { wabaId: update.wabaId });
  const tier = tierOfCustomers(update.limit);
  for (const number of numbers) {
    if (number.messaging_limit !== tier) await updateNumberDetails(number.workspace_id, number.id, { messaging_limit: tier, updated_at: nowIso() });
  }
}
