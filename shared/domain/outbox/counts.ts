import { createHash } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { addCountedRun, MAX_RUN_COUNTER_ITEMS, type CountChange } from '#shared/data/counted-batch';
import { failedCodeAttribute, RETRIED } from '#shared/data/campaign-metrics';
import { messageFromStreamImage } from '#shared/data/message';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import { hourOf } from '#shared/data/sent-hours';
import { COUNTER_OF_STATUS } from '#shared/domain/campaigns/campaign';
import { billedCostChanges, newlyBilled, type BilledCost } from '#shared/domain/outbox/billed-cost';
import { completeIfDone } from '#shared/domain/campaigns/completion';
import { fromUnits } from '#shared/domain/pricing/money';
import type { Message, MessageStatus } from '#shared/records/message';
import { countFailedMessages, countMetric, countSpend } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';

/** A message's creation (`from` null), change of status, or cost newly billed (or both), as its stream record shows it. */
interface StatusMove {
  eventId: string;
  sequence: string;
  ws: string;
  campaignId: string | null;
  /** The number the message stores (none for the workspace's first number). */
  numberId?: string;
  from: MessageStatus | null;
  to: MessageStatus;
  /** The message's error code, if it has an error (a move to `failed`). */
  errorCode?: string | number;
  /** The error code it had before, when it leaves `failed`. */
  fromErrorCode?: string | number;
  /** A campaign's retry of a failed message: that message's error code (its failure is replaced by this message in the metrics). */
  retryOfCode?: string | number;
  /** The message's cost, when this change made it billed (contract §20). */
  billed?: BilledCost;
  /** A template message leaving `queued` for the platform: the clock hour it counts in (data/sent-hours). */
  sentHour?: number;
}

const moved = (move: StatusMove) => move.from !== move.to;

function statusMoveOf(record: DynamoDBRecord): StatusMove | undefined {
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return undefined;
  const item = messageFromStreamImage(record.dynamodb?.NewImage);
  if (!item) return undefined;
  const before = record.eventName === 'INSERT' ? undefined : messageFromStreamImage(record.dynamodb?.OldImage);
  const from = record.eventName === 'INSERT' ? null : (before?.status as MessageStatus);
  const billed = newlyBilled(item, before);
  if (from === item.status && !billed) return undefined;
  const errorCodeOf = (message: Message | undefined) => message?.error?.code;
  return {
    eventId: record.eventID!,
    sequence: record.dynamodb!.SequenceNumber!,
    ws: item.workspace_id,
    campaignId: item.campaign_id ?? null,
    ...(item.business_number_id && { numberId: item.business_number_id }),
    from,
    to: item.status,
    errorCode: errorCodeOf(item),
    ...(from === 'failed' && { fromErrorCode: errorCodeOf(before) ?? 'unknown' }),
    ...(from === null && item.retry_of ? { retryOfCode: item.retry_of_code ?? 'unknown' } : {}),
    ...(billed && { billed }),
    // Business-initiated: what the platform's messaging limit counts (docs/numbers.md, "Portfolio messaging limits").
    ...(from === 'queued' && item.status !== 'failed' && item.message_type === 'template' && { sentHour: hourOf(Date.now()) }),
  };
}

/** The counter shard a run of moves is added to: any will do (only the shards' sum is read), so spread by the run. */
const shardOf = (eventId: string) => createHash('sha256').update(eventId).digest().readUInt32BE(0) % MESSAGE_SHARDS;

/** The moves' changes to their workspace counts and campaign metrics (all added to one shard). */
function countChanges(moves: StatusMove[]): CountChange[] {
  return moves.flatMap((move) => [
    ...(moved(move) ? statusChanges(move) : []),
    ...(move.billed ? billedCostChanges(move.ws, move.campaignId, move.billed) : []),
  ]);
}

/** A move's changes to its workspace counts and campaign metrics. */
function statusChanges({ ws, campaignId, numberId, from, to, errorCode, fromErrorCode, retryOfCode, sentHour }: StatusMove): CountChange[] {
  const statusMoved = (counter: { ws: string; numberId?: string }): CountChange[] => [
    { ...counter, attribute: to, delta: 1 },
    ...(from ? [{ ...counter, attribute: from, delta: -1 }] : []),
  ];
  const changes = [...statusMoved({ ws }), ...(numberId ? statusMoved({ ws, numberId }) : [])];
  if (sentHour !== undefined) changes.push({ ws, hour: sentHour, attribute: 'sent', delta: 1 });
  if (!campaignId) return changes;
  const metrics = { ws, campaignId };
  changes.push({ ...metrics, attribute: COUNTER_OF_STATUS[to], delta: 1 });
  if (retryOfCode !== undefined) {
    // Metrics count each recipient by its latest message (contract §15): a retry takes its failed message's place.
    changes.push(
      { ...metrics, attribute: 'failed', delta: -1 },
      { ...metrics, attribute: failedCodeAttribute(retryOfCode), delta: -1 },
      { ...metrics, attribute: RETRIED, delta: 1 },
    );
  } else {
    changes.push(from ? { ...metrics, attribute: COUNTER_OF_STATUS[from], delta: -1 } : { ...metrics, attribute: 'total_messages', delta: 1 });
  }
  // `failed_by_code`: moved in the same transaction as `failed`, so the codes always add up to it.
  if (to === 'failed') changes.push({ ...metrics, attribute: failedCodeAttribute(errorCode ?? 'unknown'), delta: 1 });
  if (fromErrorCode !== undefined) changes.push({ ...metrics, attribute: failedCodeAttribute(fromErrorCode), delta: -1 });
  return changes;
}

/**
 * The business metrics of moves the counters have just taken (docs/metrics.md): a message created
 * (accepted by POST /messages, fanned out by a campaign, received from a customer), leaving
 * `queued` for the platform (`sent`, or straight to a later status whose report came first), failed.
 */
function countInMetrics(run: StatusMove[]): void {
  const moves = run.filter(moved);
  const created = moves.filter((move) => move.from === null);
  countMetric(BusinessMetric.MessagesAccepted, created.filter((move) => move.to === 'queued' && !move.campaignId).length);
  countMetric(BusinessMetric.CampaignMessagesFannedOut, created.filter((move) => move.campaignId).length);
  countMetric(BusinessMetric.InboundMessagesReceived, created.filter((move) => move.to === 'received').length);
  countMetric(BusinessMetric.MessagesSent, moves.filter((move) => move.from === 'queued' && move.to !== 'failed').length);
  countFailedMessages(moves.filter((move) => move.to === 'failed').map((move) => move.errorCode ?? 'unknown'));
  // A cost is billed by a status move or by pricing arriving on a message already delivered: the whole run, not only its moves.
  countSpend(
    run.flatMap((move) => (move.billed ? [{ workspaceId: move.ws, currency: move.billed.currency, amount: Number(fromUnits(move.billed.units)) }] : [])),
  );
}

/** The longest run of leading moves whose counter items, with the mark, fit in one transaction. */
function leadingRun(moves: StatusMove[]): StatusMove[] {
  const items = new Set<string>();
  let length = 0;
  for (const move of moves) {
    const counters = [
      move.ws,
      ...(move.numberId ? [`${move.ws}#NUMBER#${move.numberId}`] : []),
      ...(move.campaignId ? [`${move.ws}#${move.campaignId}`] : []),
      ...(move.billed ? [`${move.ws}#COST#${move.billed.day}`] : []),
      ...(move.sentHour !== undefined ? [`${move.ws}@${move.sentHour}`] : []),
    ];
    const added = counters.filter((id) => !items.has(id));
    if (length && items.size + added.length > MAX_RUN_COUNTER_ITEMS) break;
    added.forEach((id) => items.add(id));
    length++;
  }
  return moves.slice(0, length);
}

/**
 * Moves the workspace counts and campaign metrics by a stream batch's status moves, exactly once,
 * then completes each campaign the batch may have finished. Each run of moves adds to the
 * counters in one transaction with its mark, so a batch handed over again (Lambda retries it
 * whole, or from its first record with more records after) finds the mark and goes on after the
 * moves that run counted. The business metrics count each run once its transaction has
 * committed, so a batch handed over again adds to them only what it adds to the counters. Only
 * ever given the batches of one stream function, as that function received them: another
 * function's batches start elsewhere (see docs/performance.md).
 */
export async function countMessages(records: DynamoDBRecord[]): Promise<void> {
  const all = records.map(statusMoveOf).filter((move) => move !== undefined);
  let moves = all;
  while (moves.length) {
    const run = leadingRun(moves);
    const through = run[run.length - 1].sequence;
    const countedAlready = await addCountedRun(run[0].eventId, through, shardOf(run[0].eventId), countChanges(run));
    if (countedAlready === undefined) {
      countInMetrics(run);
      moves = moves.slice(run.length);
    } else {
      const counted = BigInt(countedAlready);
      moves = moves.filter((move) => BigInt(move.sequence) > counted);
    }
  }
  // Only a new message or one leaving `queued` can bring its campaign to completion: a later report never changes `pending` or the total.
  const completing = all.filter((move) => move.campaignId && (move.from === null || move.from === 'queued'));
  const campaigns = new Map(completing.map((move) => [`${move.ws}#${move.campaignId}`, move]));
  await Promise.all([...campaigns.values()].map((move) => completeIfDone(move.ws, move.campaignId!)));
}
