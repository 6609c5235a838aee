import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { usageDayUpdate, USAGE_RETENTION_SECONDS, type PendingDayCounts, type UsageIncrement } from '#shared/data/usage';
import { epochSeconds, utcDate } from '#shared/time';

/**
 * A workspace's request admissions (contract §14) in one item: the second it counts, the
 * requests admitted in it, the requests admitted in the second before, and `room`, how many this
 * second may admit (twice the limit less the second before's). Every admission is one
 * conditional ADD on it, so requests in flight together can never both take the last place.
 *
 * The same write counts the request for usage (contract §9): the item also holds the counts of
 * its second's UTC day (`day`, `day_requests`, and handler latencies carried to it), which the
 * first window of a later day moves into that day's usage item, in one transaction with its start.
 */
const rateWindowKey = (ws: string) => ({ PK: `WS#${ws}#RATE`, SK: 'RATE' });

interface RateWindow {
  second: number;
  admitted: number;
  previous: number;
  room: number;
  /** The day's counts, when the window item holds them (an item written before it counted usage does not). */
  counts?: PendingDayCounts;
}

/** What an admission adds to the day's counts: this request, and latencies of answered ones (shared/http/usage.ts). */
export type AdmissionCount = Omit<UsageIncrement, 'failed'>;

export type Admission = { admitted: true; second: number; remaining: number } | { admitted: false; retryAfterSeconds: number };
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
const countNames = { '#day': 'day', '#dayRequests': 'day_requests', '#dayLatencySum': 'day_latency_ms_sum', '#dayLatencies': 'day_latency_count' };

const dayOf = (second: number) => utcDate(new Date(second * 1000));

type RawItem = Record<string, { N?: string; S?: string }>;

/** The window as a failed write returned it (raw attribute values: the document client leaves errors as they are). */
function windowOfItem(item: RawItem | undefined): RateWindow | undefined {
  if (!item?.second?.N) return undefined;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  return {
    second: number('second'),
    admitted: number('admitted'),
    previous: number('previous'),
    room: number('room'),
    ...(item.day?.S && {
      counts: { day: item.day.S, requests: number('day_requests'), latencyMsSum: number('day_latency_ms_sum'), latencies: number('day_latency_count') },
    }),
  };
}

/**
 * The window a refused write found, when it came back with the error (ReturnValuesOnConditionCheckFailure
 * puts it on `Item`, or on the window's cancellation reason in a transaction); `contended` when
 * a transaction held the item, which tells nothing about it.
 */
function oldWindow(error: unknown): RateWindow | undefined | 'contended' | 'not_a_condition_failure' {
  const name = (error as Error | undefined)?.name;
  if (name === 'ConditionalCheckFailedException') return windowOfItem((error as { Item?: RawItem }).Item);
  if (name === 'TransactionConflictException') return 'contended';
  if (!(error instanceof TransactionCanceledException)) return 'not_a_condition_failure';
  const [window] = error.CancellationReasons ?? [];
  if (window?.Code === 'ConditionalCheckFailed') return windowOfItem(window.Item);
  if (error.CancellationReasons?.some((reason) => reason.Code === 'TransactionConflict')) return 'contended';
  return 'not_a_condition_failure';
}

/**
 * This admission's addition to the day's counts (zeros when it does not count its request). Every
 * write that sets `day` writes all three counters, so they exist whenever `day` does: a day's
 * counts are conditioned on as found when they move, and a missing one would fail every move.
 */
const countValues = (count: AdmissionCount | undefined) => ({
  ':requests': count?.requests ?? 0,
  ':latencySum': Math.round(count?.latencyMsSum ?? 0),
  ':latencies': count?.latencies ?? 0,
});
const COUNTS_ADDED = '#dayRequests :requests, #dayLatencySum :latencySum, #dayLatencies :latencies';
const COUNTS_SET = '#dayRequests = :requests, #dayLatencySum = :latencySum, #dayLatencies = :latencies';

/** Counts one more request in `second`'s window if it has room; the window as it was when it has none. */
async function takePlace(
  ws: string,
  second: number,
  count: AdmissionCount | undefined,
): Promise<{ remaining: number } | { window: RateWindow | undefined } | 'contended'> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateWindowKey(ws),
        // The second's day, set if the item predates the day's counts: a window counts one second, so one day.
        UpdateExpression: `SET #day = if_not_exists(#day, :day) ADD #admitted :one, ${COUNTS_ADDED}`,
        ConditionExpression: '#second = :second AND #admitted < #room',
        ExpressionAttributeNames: { '#second': names['#second'], '#admitted': names['#admitted'], '#room': names['#room'], ...countNames },
        ExpressionAttributeValues: { ':one': 1, ':second': second, ':day': dayOf(second), ...countValues(count) },
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
): Promise<{ started: true } | { window: RateWindow | undefined } | 'contended'> {
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
      ? 'attribute_not_exists(PK)'
      : `#second = :found AND #admitted = :foundAdmitted${earlier ? ' AND #day = :foundDay AND #dayRequests = :foundRequests AND #dayLatencySum = :foundLatencySum AND #dayLatencies = :foundLatencies' : ''}`,
    ExpressionAttributeNames: { ...names, ...countNames },
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
    if (moved) {
      const increment = { requests: moved.requests, failed: 0, latencyMsSum: moved.latencyMsSum, latencies: moved.latencies };
      const usage = usageDayUpdate(ws, moved.day, increment, { movedFromWindow: true });
      await db().send(new TransactWriteCommand({ TransactItems: [{ Update: start }, { Update: usage }] }));
    } else {
      await db().send(new UpdateCommand(start));
    }
    lastWritten.set(ws, { second, admitted: 1, previous, room, own: 1 });
    return { started: true };
  } catch (error) {
    const window = oldWindow(error);
    if (window === 'not_a_condition_failure') throw error;
    return window === 'contended' ? window : { window };
  }
}

/** The day's counts the window item holds, not yet moved into their usage item (read by GET /usage). */
export async function windowDayCounts(ws: string): Promise<PendingDayCounts | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: rateWindowKey(ws), ConsistentRead: true }));
  if (typeof Item?.day !== 'string') return undefined;
  return {
    day: Item.day,
    requests: Number(Item.day_requests ?? 0),
    latencyMsSum: Number(Item.day_latency_ms_sum ?? 0),
    latencies: Number(Item.day_latency_count ?? 0),
  };
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
    const started = await startWindow(ws, second, known, room, count);
    if (started === 'contended') {
      known = await afterContention(attempt);
      continue;
    }
    if ('started' in started) return { admitted: true, second, remaining: room - 1 };
    known = started.window;
  }
  // Only a second's start contended beyond reason gets here: refuse rather than admit unchecked.
  return { admitted: false, retryAfterSeconds: 1 };
}

/**
 * Gives back a place taken for a request that turned out not to be the workspace's (its key was
 * revoked meanwhile), and its count when it was counted. Once its second has passed, only the
 * count is given back, while its day's counts are still on the window item.
 */
export async function releasePlace(ws: string, second: number, counted: boolean): Promise<void> {
  const release = (update: { UpdateExpression: string; ConditionExpression: string; names: Record<string, string>; values: Record<string, unknown> }) =>
    db()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rateWindowKey(ws),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: update.ConditionExpression,
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0, ...update.values },
        }),
      )
      .then(
        () => true,
        (error: unknown) => {
          if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') throw error;
          return false;
        },
      );
  const dayRequests = { '#dayRequests': countNames['#dayRequests'] };
  const released = await release({
    UpdateExpression: counted ? 'ADD #admitted :minusOne, #dayRequests :minusOne' : 'ADD #admitted :minusOne',
    ConditionExpression: '#second = :second AND #admitted > :zero',
    names: { '#second': names['#second'], '#admitted': names['#admitted'], ...(counted && dayRequests) },
    values: { ':second': second },
  });
  if (released || !counted) return;
  await release({
    UpdateExpression: 'ADD #dayRequests :minusOne',
    ConditionExpression: '#day = :day AND #dayRequests > :zero',
    names: { '#day': countNames['#day'], ...dayRequests },
    values: { ':day': dayOf(second) },
  });
}
