import { optedOutPhones } from '#shared/data/contact-claims';
import { errors } from '#shared/errors';

/** The workspace's stop words when it set none (contract §13); compared trimmed and case-insensitively. */
export const DEFAULT_STOP_WORDS = ['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS'];

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

/** Whether a customer's text (or quick-reply payload or button text) is one of the stop words. */
export const isStopWord = (text: string | null | undefined, stopWords: readonly string[] = DEFAULT_STOP_WORDS): boolean =>
  Boolean(text) && stopWords.some((word) => normalized(word) === normalized(text!));

/** Marketing goes only to numbers that did not opt out: 422 `recipient_opted_out` otherwise. */
export async function requireSubscribed(ws: string, digits: string): Promise<void> {
  if ((await optedOutPhones(ws, [digits])).has(digits)) {
    throw errors.refused('recipient_opted_out', 'The recipient opted out of marketing messages');
  }
}
