import { UpdateCommand } from '#shared/data/table/commands';
import { mapLimit } from '#shared/concurrency';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { newId } from '#shared/ids';
import { getMessage } from '#shared/data/message';
import { messagesPage } from '#shared/data/message-list';
import { MESSAGE_SHARDS } from '#shared/data/message-shard';
import { timed, type BenchContext, type Figure } from './harness';
import { partitionLoad } from './partitions';

export interface CampaignRun {
  recipients: number;
  launchMs: number;
  /** Launch start → every message stored (`total_messages` reached). */
  storedMs: number;
  /** Launch start → campaign `completed` with every message `sent`. */
  sentMs: number;
  workspaceId: string;
}

/** The campaign whose writes give the partition load: as large as the largest timed one. */
const PARTITION_LOAD_RECIPIENTS = 10_000;

const phone = (i: number) => `+1415${String(5550000 + i).padStart(7, '0')}`;

/** Launches a campaign of `welcome` to `n` direct recipients and polls its results until completed. */
export async function runCampaign(ctx: BenchContext, n: number): Promise<CampaignRun> {
  const ws = await ctx.workspace({ ranCampaigns: true });
  await ctx.call('POST', '/api/v1/templates/sync', ws.key);
  const campaign = (await ctx.call('POST', '/api/v1/campaigns', ws.key, { name: 'bench', template_name: 'welcome' })).body.data;
  const recipients = Array.from({ length: n }, (_, i) => ({ phone: phone(i), variables: [`R${i}`] }));
  const start = performance.now();
  const launch = await timed(() => ctx.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, ws.key, { recipients }));
  if (launch.result.status !== 202) throw new Error(`launch failed: ${JSON.stringify(launch.result.body).slice(0, 300)}`);
  let storedMs = 0;
  for (;;) {
    const { metrics, status } = (await ctx.call('GET', `/api/v1/campaigns/${campaign.id}/results`, ws.key)).body.data;
    if (!storedMs && metrics.total_messages === n) storedMs = performance.now() - start;
    if (status === 'completed') {
      if (metrics.sent !== n) throw new Error(`campaign completed with ${JSON.stringify(metrics)}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { recipients: n, launchMs: launch.ms, storedMs, sentMs: performance.now() - start, workspaceId: ws.id };
}

/** Writes `n` copies of one of the run's stored message items (fresh keys) with BatchWriteItem: the floor for storing the messages. */
async function batchWriteMessages(workspaceId: string, n: number): Promise<{ ms: number; keys: Record<string, string>[] }> {
  const page = await messagesPage(workspaceId, {}, { skip: 0, take: 1 }, MESSAGE_SHARDS);
  const sample = page !== 'invalid_cursor' ? page.messages[0] : undefined;
  const template = sample && (await getMessage(workspaceId, sample.id));
  if (!template) throw new Error('no message item to copy');
  // Same attributes and index entries as a stored message, under keys the stream's consumers ignore.
  const items = Array.from({ length: n }, () => {
    const id = newId();
    return {
      PutRequest: {
        Item: { ...template, PK: `BENCH#${id}`, SK: 'BENCH', GSI3PK: 'BENCH#LIST', GSI3SK: id, GSI2PK: `BENCH#${template.phone_number}`, GSI2SK: id, id },
      },
    };
  });
  return { ms: (await timed(() => batchWrite(items))).ms, keys: items.map(({ PutRequest }) => ({ PK: PutRequest.Item.PK, SK: PutRequest.Item.SK })) };
}

/** Calls in flight at once, as the baseline's BatchWriteItem has (shared/data/table/batch-write.ts). */
const IN_FLIGHT = 16;

/**
 * The send worker's claim (shared/data/message-claim.ts) on each of those items: the one conditional
 * write every message needs before the platform is called (contract §5), timed alone. With the
 * baseline it is the floor of the fan-out on this DynamoDB (docs/performance.md).
 */
async function claimEach(keys: Record<string, string>[]): Promise<number> {
  const claim = (Key: Record<string, string>) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET claim = :claim ADD attempts :one REMOVE ambiguous_since, GSI1PK, GSI1SK',
        ConditionExpression: 'attribute_not_exists(claim)',
        ExpressionAttributeValues: { ':claim': { token: 'bench', at: Date.now() }, ':one': 1 },
      }),
    );
  return (await timed(() => mapLimit(keys, IN_FLIGHT, claim))).ms;
}

/**
 * Fan-out throughput: a 10,000-recipient campaign, launch → all `sent`, against BatchWriteItem of
 * as many message items, both unmetered; then one more campaign of 10,000, metered, for the load
 * on the busiest partition keys.
 */
export async function benchFanout(ctx: BenchContext): Promise<Figure[]> {
  await ctx.simulatorFaults({ no_webhooks: true });
  const figures: Figure[] = [];
  try {
    for (const n of [1000, 10000]) {
      const run = await runCampaign(ctx, n);
      const { ms: baseline, keys } = await batchWriteMessages(run.workspaceId, n);
      const claims = await claimEach(keys);
      figures.push(
        {
          name: `campaign launch → ${n} messages stored (the launch request itself: ${Math.round(run.launchMs)} ms)`,
          value: run.storedMs,
          unit: 'ms',
          baseline: { name: `BatchWriteItem of ${n} message items`, value: baseline },
        },
        {
          name: `campaign launch → all ${n} sent`,
          value: run.sentMs,
          unit: 'ms',
          baseline: { name: `BatchWriteItem of ${n} message items`, value: baseline },
          budget: { max: n === 10000 ? 2 : 3, of: 'ratio' },
        },
        {
          name: `the send's claim alone: a conditional UpdateItem on each of the ${n} items, ${IN_FLIGHT} in flight (every message needs one before the platform call: with the store, the fan-out's floor here)`,
          value: claims,
          unit: 'ms',
          baseline: { name: `BatchWriteItem of ${n} message items`, value: baseline },
        },
        {
          name: `campaign throughput (${n})`,
          value: (n / run.sentMs) * 1000,
          unit: 'messages/s',
          baseline: { name: `BatchWriteItem of ${n} message items`, value: (n / baseline) * 1000 },
        },
      );
    }
    // The partition load from a campaign of its own: metering every call would slow the timed ones (local/usage-meter.ts).
    await ctx.meterCapacity(true);
    const before = await ctx.settledUsage();
    await runCampaign(ctx, PARTITION_LOAD_RECIPIENTS);
    figures.push(...partitionLoad(`campaign of ${PARTITION_LOAD_RECIPIENTS}, sends only`, before, await ctx.settledUsage(), PARTITION_LOAD_RECIPIENTS));
  } finally {
    await ctx.meterCapacity(false);
    await ctx.simulatorFaults({ no_webhooks: false });
  }
  return figures;
}
