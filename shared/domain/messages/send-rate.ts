import { takeSlotsIn } from '#shared/data/send-rate';
import { getPace, recordSlowdown, setThroughput, type NumberPace } from '#shared/data/number-pace';
import { env } from '#shared/config';

/** Messages per second per platform number when the operator set none; the platform's default throughput is 80. `0` lifts the bound. */
const defaultThroughput = () => env.sendRatePerSecond;

/** Windows a worker waits through before handing the job back to the queue. */
const MAX_WAIT_WINDOWS = 10;
/** A 130429 halves the rate, at most once a second, down to a quarter of the throughput. */
const SLOWDOWN_GAP_MS = 1000;
const FLOOR_SHARE = 0.25;
/** Then it recovers by a tenth of the throughput per second (full speed ≤ 7.5 s after the last 130429). */
const RECOVERY_SHARE_PER_SECOND = 0.1;
/** How long a worker trusts the pace it read (each worker reads it about once a second). */
const PACE_CACHE_MS = 1000;
/**
 * Writes per second to a number's window item at full rate: a worker takes its slots in blocks of
 * rate / 100 (10 at 1,000 messages/s), so the window's partition stays far under DynamoDB's
 * 1,000 writes/s. The price: slots a worker took and did not use in its second go unused.
 */
const WINDOW_WRITES_PER_SECOND = 100;

/** The pace as read, or being read: the sends of a queue batch that find it stale together share one read. */
const paceCache = new Map<string, { pace: Promise<NumberPace | undefined>; readAt: number }>();

function paceOf(phoneNumberId: string, now: number): Promise<NumberPace | undefined> {
  const cached = paceCache.get(phoneNumberId);
  if (cached && now - cached.readAt < PACE_CACHE_MS) return cached.pace;
  const pace = getPace(phoneNumberId);
  paceCache.set(phoneNumberId, { pace, readAt: now });
  // A failed read is not kept: the next send reads again.
  pace.catch(() => paceCache.get(phoneNumberId)?.pace === pace && paceCache.delete(phoneNumberId));
  return pace;
}

/** The number's sends per second now (0: unbounded): its throughput, less what a recent 130429 took off. */
export function currentRate(pace: NumberPace | undefined, now: number): number {
  const throughput = pace?.throughput ?? defaultThroughput();
  if (throughput <= 0 || pace?.slowed_at === undefined || pace.slowed_to === undefined) return throughput;
  const recovered = pace.slowed_to + (throughput * RECOVERY_SHARE_PER_SECOND * (now - pace.slowed_at)) / 1000;
  return Math.max(1, Math.min(throughput, Math.floor(recovered)));
}

/** Slots this worker took in a number's window and has not used yet, and whether the window refused it more. */
const heldSlots = new Map<string, { second: number; left: number; full: boolean }>();
/** A reservation in flight per number: concurrent sends wait for it instead of each reserving a block. */
const reserving = new Map<string, Promise<void>>();

/** Reserves a block of the window `second` for this worker, or a single slot when the block does not fit, or notes the window full. */
async function reserve(phoneNumberId: string, second: number, rate: number): Promise<void> {
  const block = Math.ceil(rate / WINDOW_WRITES_PER_SECOND);
  if (block > 1 && (await takeSlotsIn(phoneNumberId, second, block, rate))) heldSlots.set(phoneNumberId, { second, left: block, full: false });
  else if (await takeSlotsIn(phoneNumberId, second, 1, rate)) heldSlots.set(phoneNumberId, { second, left: 1, full: false });
  else heldSlots.set(phoneNumberId, { second, left: 0, full: true });
}

/** One slot of the window `second`, from the slots this worker holds, reserving more when they are used up; false when the window is full. */
async function slotIn(phoneNumberId: string, second: number, rate: number): Promise<boolean> {
  for (;;) {
    const held = heldSlots.get(phoneNumberId);
    if (held?.second === second && held.left > 0) {
      held.left--;
      return true;
    }
    if (held?.second === second && held.full) return false;
    let pending = reserving.get(phoneNumberId);
    if (!pending) {
      pending = reserve(phoneNumberId, second, rate).finally(() => reserving.delete(phoneNumberId));
      reserving.set(phoneNumberId, pending);
    }
    await pending;
    // Another send moved on to a later window meanwhile: this one tries that window, from the caller.
    if ((heldSlots.get(phoneNumberId)?.second ?? second) > second) return false;
  }
}

/**
 * Takes one send slot in the number's current one-second window, waiting for later windows
 * while they are full. A burst is thereby paced, not retried: waiting costs no platform attempt.
 */
export async function takeSendSlot(phoneNumberId: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_WAIT_WINDOWS; attempt++) {
    const now = Date.now();
    const rate = currentRate(await paceOf(phoneNumberId, now), now);
    if (rate <= 0) return true;
    const second = Math.floor(now / 1000);
    if (await slotIn(phoneNumberId, second, rate)) return true;
    await new Promise((resolve) => setTimeout(resolve, (second + 1) * 1000 - now));
  }
  return false;
}

/** The platform answered 130429 (throughput reached): the number's rate halves, every worker follows within a second. */
export async function slowDown(phoneNumberId: string, now = Date.now()): Promise<void> {
  const pace = await getPace(phoneNumberId);
  const throughput = pace?.throughput ?? defaultThroughput();
  if (throughput <= 0) return;
  const rate = Math.max(1, Math.floor(throughput * FLOOR_SHARE), Math.floor(currentRate(pace, now) / 2));
  if (await recordSlowdown(phoneNumberId, rate, now, now - SLOWDOWN_GAP_MS)) paceCache.delete(phoneNumberId);
}

/** The operator's per-number setting (admin command): the throughput the platform granted this number. */
export async function setNumberThroughput(phoneNumberId: string, throughput: number): Promise<void> {
  await setThroughput(phoneNumberId, throughput);
  paceCache.delete(phoneNumberId);
}
