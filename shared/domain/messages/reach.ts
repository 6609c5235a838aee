import { closedMarketError } from '#shared/domain/messages/markets';
import { PHONE_NUMBER_REQUIRED } from '#shared/domain/messages/failures';
import type { Recipient } from '#shared/domain/messages/recipient';
import type { MessageError } from '#shared/records/message';
import type { Template } from '#shared/records/template';

/**
 * Why a template message can never reach this recipient, decided from what is in hand (no read):
 * an authentication template needs a number (the platform's 131062), a marketing one a market the
 * platform delivers marketing to (contract §21). Null when nothing stands in the way.
 */
export function cannotReach(template: Pick<Template, 'category'>, recipient: Recipient, markets?: readonly string[]): MessageError | null {
  if (template.category === 'AUTHENTICATION' && !recipient.phone) return PHONE_NUMBER_REQUIRED;
  return closedMarketError(template.category, recipient, markets);
}
