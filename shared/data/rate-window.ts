import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { epochSeconds } from '#shared/time';

/**
 * A workspace's request admissions (contract §14) in one item: the second it counts, the
 * requests admitted in it, the requests admitted in the second before, and `room`, how many this
 * second may admit (twice the limit less the second before's). Every admission is one
 * conditional ADD on it, so requests in flight together can never both take the last place.
 */
const rateWindowKey = (ws: string) => ({ PK: `WS#${ws}#RATE`, SK: 'RATE' });

interface RateWindow {
  second: number;
  admitted: number;
  previous: number;
  room: number;
}

export type Admission = { admitted: true; second: number; remaining: number } | { admitted: false; retryAfterSeconds: number };

/** The window item outlives its second a little, then expires by TTL. */
const EXPIRY_SECONDS = 60;
/** A second's first requests race to start its window; each loser learns the winner's window from its failed write. */
const MAX_ATTEMPTS = 6;

/**
 * The window as this process's last admission in the workspace left it, and how many of its
 * places this process took. When every place was this process's, the window was most likely not
 * written since: the first request of a later second starts the new window from it straight away
 * (conditioned on it, as any start), instead of first failing to take a place in the old one.
 */
const lastWritten = new Map<string, RateWindow & { own: number }>();

const names = { '#second': 'second', '#admitted': 'admitted', '#previous': 'previous', '#room': 'room' };

/** Whether the failed write's old item came back with the error: ReturnValuesOnConditionCheckFailure puts it on `Item`. */
function oldWindow(error: unknown): RateWindow | undefined | 'not_a_condition_failure' {
  if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') return 'not_a_condition_failure';
  const item = (error as { Item?: Record<string, { N?: string }> }).Item;
  if (!item?.second?.N) return undefined;
  return { second: Number(item.second.N), admitted: Number(item.admitted?.N ?? 0), previous: Number(item.previous?.N ?? 0), room: Number(item.room?.N ?? 0) };
}

/** Counts one more request in `second`'s window if it has room; the window as it was when it has none. */
async function takePlace(ws: string, second: number): Promise<{ remaining: number } | { window: RateWindow | undefined }> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        UpdateExpression: 'ADD #admitted :one',
        ConditionExpression: '#second = :second AND #admitted < #room',
        ExpressionAttributeNames: { '#second': names['#second'], '#admitted': names['#admitted'], '#room': names['#room'] },
        ExpressionAttributeValues: { ':one': 1, ':second': second },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const window = { second, admitted: Number(Attributes!.admitted), previous: Number(Attributes!.previous ?? 0), room: Number(Attributes!.room) };
    const before = lastWritten.get(ws);
    lastWritten.set(ws, { ...window, own: (before?.second === second ? before.own : 0) + 1 });
    return { remaining: window.room - window.admitted };
  } catch (error) {
    const window = oldWindow(error);
    if (window === 'not_a_condition_failure') throw error;
    return { window };
  }
}

/** Starts `second`'s window over the one found (unchanged since), counting this request as its first. */
async function startWindow(
  ws: string,
  second: number,
  found: RateWindow | undefined,
  room: number,
): Promise<{ started: true } | { window: RateWindow | undefined }> {
  const previous = found?.second === second - 1 ? found.admitted : 0;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        UpdateExpression: 'SET #second = :second, #admitted = :one, #previous = :previous, #room = :room, expires_at = :expires',
        ConditionExpression: found ? '#second = :found AND #admitted = :foundAdmitted' : 'attribute_not_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: {
          ':second': second,
          ':one': 1,
          ':previous': previous,
          ':room': room,
          ':expires': second + EXPIRY_SECONDS,
          ...(found && { ':found': found.second, ':foundAdmitted': found.admitted }),
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    lastWritten.set(ws, { second, admitted: 1, previous, room, own: 1 });
    return { started: true };
  } catch (error) {
    const window = oldWindow(error);
    if (window === 'not_a_condition_failure') throw error;
    return { window };
  }
}

/** After a full second, the next one starts with room only if this one took less than twice the limit. */
const retryAfterFull = (window: RateWindow, twiceLimit: number) => (window.admitted < twiceLimit ? 1 : 2);

/**
 * Admits one request of the workspace in the current second, or refuses it. A second's window
 * has room for twice the limit less the requests admitted in the second before, so any two
 * consecutive seconds admit at most twice the limit: the rate averages to the limit and one
 * second may take a burst of up to twice it. `twiceLimit` is asked only when a second starts,
 * so a new limit holds from the next second on. A request whose clock lags behind another
 * function's counts in the newer second.
 */
export async function admit(ws: string, twiceLimit: () => Promise<number>, now = Date.now()): Promise<Admission> {
  try {
    return await admitOnce(ws, twiceLimit, now);
  } catch (error) {
    // The window item throttled even after the SDK's retries: the workspace itself is flooding it.
    if (THROTTLED.has((error as Error | undefined)?.name ?? '')) return { admitted: false, retryAfterSeconds: 1 };
    throw error;
  }
}

const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

async function admitOnce(ws: string, twiceLimit: () => Promise<number>, now: number): Promise<Admission> {
  let second = epochSeconds(new Date(now));
  const mine = lastWritten.get(ws);
  // A window this process alone wrote, of an earlier second: start this second's from it (a stale one fails the start's condition and comes back).
  let known: RateWindow | undefined | 'unknown' = mine && mine.second < second && mine.admitted === mine.own ? mine : 'unknown';
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (known === 'unknown' || known?.second === second) {
      const taken = await takePlace(ws, second);
      if ('remaining' in taken) return { admitted: true, second, remaining: taken.remaining };
      known = taken.window;
      if (known?.second === second) return { admitted: false, retryAfterSeconds: retryAfterFull(known, known.room + known.previous) };
    }
    if (known && known.second > second) {
      second = known.second;
      continue;
    }
    const twice = await twiceLimit();
    const room = twice - (known?.second === second - 1 ? known.admitted : 0);
    if (room < 1) return { admitted: false, retryAfterSeconds: 1 };
    const started = await startWindow(ws, second, known, room);
    if ('started' in started) return { admitted: true, second, remaining: room - 1 };
    known = started.window;
  }
  // Only a second's start contended beyond reason gets here: refuse rather than admit unchecked.
  return { admitted: false, retryAfterSeconds: 1 };
}

/** Gives back a place taken for a request that turned out not to be the workspace's (its key was revoked meanwhile). */
export async function releasePlace(ws: string, second: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        UpdateExpression: 'ADD #admitted :minusOne',
        ConditionExpression: '#second = :second AND #admitted > :zero',
        ExpressionAttributeNames: { '#second': names['#second'], '#admitted': names['#admitted'] },
        ExpressionAttributeValues: { ':minusOne': -1, ':second': second, ':zero': 0 },
      }),
    );
  } catch (error) {
    if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') throw error;
  }
}
