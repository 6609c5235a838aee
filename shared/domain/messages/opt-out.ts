import { optedOutPhones, optedOutUsers } from '#shared/data/contact-claims';
import type { Recipient } from '#shared/domain/messages/recipient';
import { errors } from '#shared/errors';

/** The workspace's stop words when it set none (contract §13); compared trimmed and case-insensitively. */
export const DEFAULT_STOP_WORDS = ['STOP', 'UNSUBSCRIBE', 'STOP PROMOTIONS'];

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

/** Whether a customer's text (or quick-reply payload or button text) is one of the stop words. */
export const isStopWord = (text: string | null | undefined, stopWords: readonly string[] = DEFAULT_STOP_WORDS): boolean =>
  Boolean(text) && stopWords.some((word) => normalized(word) === normalized(text!));

/** Marketing goes only to customers who did not opt out, by number, else by user id: 422 `recipient_opted_out` otherwise. */
export async function requireSubscribed(ws: string, recipient: Recipient): Promise<void> {
  const optedOut = recipient.phone ? await optedOutPhones(ws, [recipient.phone]) : await optedOutUsers(ws, [recipient.userId!]);
  if (optedOut.size) {
    throw errors.refused('recipient_opted_out', 'The recipient opted out of marketing messages');
  }
}
