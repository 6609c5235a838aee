import { takeSlotIn } from '#shared/data/send-rate';

/** Messages per second per platform number; the platform's default throughput is 80. `0` lifts the bound. */
const limit = () => Number(process.env.SEND_RATE_PER_SECOND ?? 80);

/** Windows a worker waits through before handing the job back to the queue. */
const MAX_WAIT_WINDOWS = 10;

/**
 * Takes one send slot in the number's current one-second window, waiting for later windows
 * while they are full. A burst is thereby paced, not retried: waiting costs no platform attempt.
 */
export async function takeSendSlot(phoneNumberId: string): Promise<boolean> {
  if (limit() <= 0) return true;
  for (let attempt = 0; attempt < MAX_WAIT_WINDOWS; attempt++) {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (await takeSlotIn(phoneNumberId, second, limit())) return true;
    await new Promise((resolve) => setTimeout(resolve, (second + 1) * 1000 - now));
  }
  return false;
}
