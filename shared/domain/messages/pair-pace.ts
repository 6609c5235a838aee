import { reservePairSlot } from '#shared/data/pair-pace';
import { env } from '#shared/config';

/** The platform's pair rate limit: about one message every 6 seconds to the same recipient. PAIR_INTERVAL_MS shortens it in tests. */
const pairIntervalMs = () => env.pairIntervalMs;

/** A send to this recipient was refused with 131056: how long this message waits for its own slot (only this recipient's messages wait). */
export async function pairLimitDelayMs(phoneNumberId: string, recipient: string, now = Date.now()): Promise<number> {
  return (await reservePairSlot(phoneNumberId, recipient, pairIntervalMs(), now)) - now;
}
