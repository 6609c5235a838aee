import { TransactWriteCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { usageDayUpdate, USAGE_RETENTION_SECONDS } from '#shared/data/usage';
import {
  COUNTS_ADDED,
  COUNTS_SET,
  dayCountNames,
  countValues,
  dayOf,
  windowNames,
  oldWindow,
  rateWindowKey,
  type AdmissionCount,
  type RateWindow,
} from '#shared/data/rate-window';
import { readShards } from '#shared/data/message-list-shards';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import { epochSeconds } from '#shared/time';

/*
 * Admitting a workspace's requests on its rate window (contract §14; the item:
 * rate-window.ts, a withdrawal: rate-window-release.ts). Every admission is one conditional
 * ADD on the window, so requests in flight together can never both take the last place; the same
 * write counts the request for usage (contract §9).
 */

/** An admitted request also learns the partitions its workspace's message list reads (data/message-list-shards.ts), from the item its write returns. */
export type Admission = { admitted: true; second: number; remaining: number; listShards: number } | { admitted: false; retryAfterSeconds: number };
/** A second's first requests race to start its window; each loser learns the winner's window from its failed write. */
const MAX_ATTEMPTS = 6;

/**
 * The window as this process's last admission in the workspace left it, and how many of its
 * places this process took. When every place was this process's, the window was most likely not
 * written since: the first request of a later second starts the new window from it straight away
 * (conditioned on it, as any start), instead of first failing to take a place in the old one.
 */
const lastWritten = new Map<string, RateWindow & { own: number }>();

/** Counts one more request in `second`'s window if it has room; the window as it was when it has none. */
async function takePlace(
  ws: string,
  second: number,
  count: AdmissionCount | undefined,
): Promise<{ remaining: number; listShards: number } | { window: RateWindow | undefined } | 'contended'> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        // The second's day, set if the item predates the day's counts: a window counts one second, so one day.
        UpdateExpression: `SET #day = if_not_exists(#day, :day) ADD #admitted :one, ${COUNTS_ADDED}`,
        ConditionExpression: '#second = :second AND #admitted < #room',
        ExpressionAttributeNames: { '#second': windowNames['#second'], '#admitted': windowNames['#admitted'], '#room': windowNames['#room'], ...dayCountNames },
        ExpressionAttributeValues: { ':one': 1, ':second': second, ':day': dayOf(second), ...countValues(count) },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    const window = { second, admitted: Number(Attributes!.admitted), previous: Number(Attributes!.previous ?? 0), room: Number(Attributes!.room) };
    const before = lastWritten.get(ws);
    lastWritten.set(ws, { ...window, own: (before?.second === second ? before.own : 0) + 1 });
    return { remaining: window.room - window.admitted, listShards: readShards(Attributes) };
  } catch (error) {
    const window = oldWindow(error);
    if (window === 'not_a_condition_failure') throw error;
    return window === 'contended' ? window : { window };
  }
}

/**
 * Starts `second`'s window over the one found (unchanged since), counting this request as its
 * first. The day's counts go on when the found window is of the same day; a window of an earlier
 * day hands its counts to that day's usage item, in one transaction with the start, conditioned
 * on the counts as found, so they move exactly once. The item lives as long as a usage day does:
 * an idle workspace's last window still holds its day's counts.
 */
async function startWindow(
  ws: string,
  second: number,
  found: RateWindow | undefined,
  room: number,
  count: AdmissionCount | undefined,
): Promise<{ listShards: number } | { window: RateWindow | undefined } | 'contended'> {
  const previous = found?.second === second - 1 ? found.admitted : 0;
  const day = dayOf(second);
  // The day the found counts are of: as the item says (a window started by code older than the
  // counts may hold a later second), else its second's (a process's own last window, of this day).
  const foundDay = found?.counts?.day ?? (found && dayOf(found.second));
  const sameDay = foundDay === day;
  // An earlier day's counts are conditioned on as found, and moved unless they are all zero.
  const earlier = !sameDay ? found?.counts : undefined;
  const moved = earlier && (earlier.requests || earlier.latencies) ? earlier : undefined;
  const start = {
    TableName: tableName(),
    Key: rateWindowKey(ws),
    // The same day's counts go on; otherwise this request's counts are the day's first.
    UpdateExpression: `SET #second = :second, #admitted = :one, #previous = :previous, #room = :room, expires_at = :expires, #day = :day${sameDay ? ` ADD ${COUNTS_ADDED}` : `, ${COUNTS_SET}`}`,
    ConditionExpression: !found
      ? 'attribute_not_exists(#second)'
      : `#second = :found AND #admitted = :foundAdmitted${earlier ? ' AND #day = :foundDay AND #dayRequests = :foundRequests AND #dayLatencySum = :foundLatencySum AND #dayLatencies = :foundLatencies' : ''}`,
    ExpressionAttributeNames: { ...windowNames, ...dayCountNames },
    ExpressionAttributeValues: {
      ':second': second,
      ':one': 1,
      ':previous': previous,
      ':room': room,
      ':expires': second + USAGE_RETENTION_SECONDS,
      ':day': day,
      ...countValues(count),
      ...(found && { ':found': found.second, ':foundAdmitted': found.admitted }),
      ...(earlier && {
        ':foundDay': earlier.day,
        ':foundRequests': earlier.requests,
        ':foundLatencySum': earlier.latencyMsSum,
        ':foundLatencies': earlier.latencies,
      }),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  try {
    // A transaction returns no item: its request lists every partition (once a day).
    let listShards = MESSAGE_SHARDS;
    if (moved) {
      const increment = { requests: moved.requests, failed: 0, latencyMsSum: moved.latencyMsSum, latencies: moved.latencies };
      const usage = usageDayUpdate(ws, moved.day, increment, { movedFromWindow: true });
      await db().send(new TransactWriteCommand({ TransactItems: [{ Update: start }, { Update: usage }] }));
    } else {
      listShards = readShards((await db().send(new UpdateCommand({ ...start, ReturnValues: 'ALL_NEW' }))).Attributes);
    }
    lastWritten.set(ws, { second, admitted: 1, previous, room, own: 1 });
    return { listShards };
  } catch (error) {
    const window = oldWindow(error);
    if (window === 'not_a_condition_failure') throw error;
    return window === 'contended' ? window : { window };
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
 * function's counts in the newer second. `count`, when given, goes on the day's usage counts
 * with the admission (a refused request adds nothing).
 */
export async function admit(ws: string, twiceLimit: () => Promise<number>, count?: AdmissionCount, now = Date.now()): Promise<Admission> {
  try {
    return await admitOnce(ws, twiceLimit, count, now);
  } catch (error) {
    // The window item throttled even after the SDK's retries: the workspace itself is flooding it.
    if (THROTTLED.has((error as Error | undefined)?.name ?? '')) return { admitted: false, retryAfterSeconds: 1 };
    throw error;
  }
}

const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** A transaction held the item (a day's counts moving): wait a few jittered milliseconds, then read the window afresh by writing again. */
async function afterContention(attempt: number): Promise<'unknown'> {
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
  return 'unknown';
}

async function admitOnce(ws: string, twiceLimit: () => Promise<number>, count: AdmissionCount | undefined, now: number): Promise<Admission> {
  let second = epochSeconds(new Date(now));
  const mine = lastWritten.get(ws);
  // A window this process alone wrote, of an earlier second of the same day: start this second's
  // from it (a stale one fails the start's condition and comes back). Not across days: the day's
  // counts it would move are in the item only.
  let known: RateWindow | undefined | 'unknown' =
    mine && mine.second < second && mine.admitted === mine.own && dayOf(mine.second) === dayOf(second) ? mine : 'unknown';
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (known === 'unknown' || known?.second === second) {
      const taken = await takePlace(ws, second, count);
      if (taken === 'contended') {
        known = await afterContention(attempt);
        continue;
      }
      if ('remaining' in taken) return { admitted: true, second, remaining: taken.remaining, listShards: taken.listShards };
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
    const started = await startWindow(ws, second, known, room, count);
    if (started === 'contended') {
      known = await afterContention(attempt);
      continue;
    }
    if ('listShards' in started) return { admitted: true, second, remaining: room - 1, listShards: started.listShards };
    known = started.window;
  }
  // Only a second's start contended beyond reason gets here: refuse rather than admit unchecked.
  return { admitted: false, retryAfterSeconds: 1 };
}
