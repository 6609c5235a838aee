import type { MessageError } from '#shared/records/message';

/** The error of a marketing message stored for, or held back from, a number that opted out (contract §13, §15). */
export const RECIPIENT_OPTED_OUT: MessageError = { code: 'recipient_opted_out', title: 'The recipient opted out of marketing messages' };

/** The error of a campaign message still unsent when its campaign was cancelled (contract §15). */
export const CAMPAIGN_CANCELLED: MessageError = { code: 'campaign_cancelled', title: 'The campaign was cancelled before this message was sent' };

/** The error of a marketing message to a market the platform closes to marketing (contract §21), never sent. */
export const MARKET_NOT_ALLOWED: MessageError = { code: 'market_not_allowed', title: 'The platform does not deliver marketing templates to this market' };

/** The error of an authentication template to a customer known only by user id (contract §21; the platform's 131062), never sent. */
export const PHONE_NUMBER_REQUIRED: MessageError = {
  code: 'phone_number_required',
  title: "Authentication templates need the customer's phone number; this customer is known only by user id",
};
