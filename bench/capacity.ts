import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { campaignCounts } from '#shared/data/campaign-metrics';
import { getMessage } from '#shared/data/message';
import { newId } from '#shared/ids';
import { round, type BenchContext, type Figure } from './harness';
import { partitionLoad } from './partitions';
import { functionsTriggeredBy, perMessage, PRICE, type LifetimeCost } from './aws-cost';

const SINGLE_MESSAGES = 20;
const CAMPAIGN_RECIPIENTS = 200;
/** Single messages sent one at a time, this far apart: each one's stream records reach the stream functions alone. */
const TRICKLE_GAP_MS = 1500;
/** Reads at a dashboard's pace: `GET /messages/{id}` this many times, this far apart. */
const PACED_READS = 50;
const READ_GAP_MS = 300;
/** The functions the table's stream invokes. */
const streamFunctions = functionsTriggeredBy('tableStream');

/** Issue 54: USD per 1,000 messages in AWS, at most, for the burst of single messages and for a message sent alone. */
const USD_PER_1000_BUDGET = 0.05;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Read units of one strongly consistent GetItem of a stored message: the least a message's life can read. */
async function getOneMessageUnits(sample: Record<string, unknown>): Promise<number> {
  const { ConsumedCapacity } = await db().send(
    new GetCommand({ TableName: tableName(), Key: { PK: sample.PK, SK: sample.SK }, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }),
  );
  return ConsumedCapacity?.CapacityUnits ?? 0;
}

/** Write units of one PutItem of a stored message item (same attributes and index entries): the least a message can cost. */
async function putOneMessageUnits(sample: Record<string, unknown>): Promise<number> {
  const id = newId();
  const { ConsumedCapacity } = await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...sample, PK: `BENCH#${id}`, SK: 'BENCH', GSI3PK: 'BENCH#LIST', GSI3SK: id, GSI2PK: 'BENCH#PHONE', GSI2SK: id },
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  return ConsumedCapacity?.CapacityUnits ?? 0;
}

function costFigures(
  label: string,
  cost: LifetimeCost,
  baseline: { writeUnits: number; readUnits: number },
  budgets: { writeUnits?: number; usdPer1000?: number } = {},
): Figure[] {
  const usd = cost.usdPer1000;
  return [
    {
      name: `${label}: write units per message (accept → sent → delivered → read)`,
      value: cost.writeUnits,
      unit: 'WCU',
      baseline: { name: 'one PutItem of the message item', value: baseline.writeUnits },
      ...(budgets.writeUnits && { budget: { max: budgets.writeUnits, of: 'value' as const } }),
      detail: cost.breakdown,
    },
    {
      name: `${label}: read units per message`,
      value: cost.readUnits,
      unit: 'RCU',
      baseline: { name: 'one strongly consistent GetItem of the message', value: baseline.readUnits },
    },
    {
      name:
        `${label}: USD per 1,000 messages in AWS (DynamoDB ${round(usd.dynamodb, 5)}, Lambda ${round(usd.lambda, 5)}, SQS ${round(usd.sqs, 5)}, EventBridge ${round(usd.eventbridge, 5)}, API Gateway ${round(usd.apiGateway, 5)}; ` +
        `per message ${round(cost.lambdaInvocations)} Lambda invocations of ${round(cost.lambdaMs)} ms in all, ${round(cost.sqsRequests)} SQS requests, ${round(cost.events)} events, ${round(cost.apiRequests)} API requests)`,
      value: usd.total,
      unit: 'USD',
      baseline: { name: 'the PutItem baseline alone', value: 1000 * baseline.writeUnits * PRICE.dynamodbWriteUnit },
      ...(budgets.usdPer1000 && { budget: { max: budgets.usdPer1000, of: 'value' as const } }),
    },
  ];
}

/** Issue 29's counts of one message's whole life: the AWS calls its functions made, their depth, and the functions' work. */
function callFigures(label: string, cost: LifetimeCost, dynamodbCallBudget?: number): Figure[] {
  // The least a message's life can call: one write for each state it records (accepted, sent, delivered, read).
  const baseline = { name: 'one write per state: accept, sent, delivered, read', value: 4 };
  const calls = (service: string) => cost.awsCalls[service] ?? 0;
  const others = Object.keys(cost.awsCalls).filter((service) => !['DynamoDB', 'SQS', 'EventBridge'].includes(service));
  return [
    {
      name: `${label}: DynamoDB calls per message, all its functions`,
      value: calls('DynamoDB'),
      unit: 'calls',
      baseline,
      ...(dynamodbCallBudget && { budget: { max: dynamodbCallBudget, of: 'value' as const } }),
    },
    { name: `${label}: DynamoDB calls on its invocations' critical paths per message (depths summed)`, value: cost.dynamodbDepth, unit: 'calls', baseline },
    { name: `${label}: SQS calls per message by its functions (Lambda's own receives and deletes not counted)`, value: calls('SQS'), unit: 'calls' },
    {
      name: `${label}: EventBridge calls per message (${round(cost.events)} events${others.map((service) => `; ${service} ${round(calls(service))} calls`).join('')})`,
      value: calls('EventBridge'),
      unit: 'calls',
    },
    {
      // The calls move with this share from run to run: such a report costs one call more (docs/performance.md).
      name: `${label}: platform-id item writes per message (above 1: status reports that overtook their worker's write, a race a loaded stack loses)`,
      value: cost.platformIdWrites,
      unit: 'WCU',
    },
    { name: `${label}: Lambda invocations per message`, value: cost.lambdaInvocations, unit: 'invocations' },
    { name: `${label}: handler CPU time per message, all its functions`, value: cost.cpuMs, unit: 'ms' },
  ];
}

/**
 * Capacity per message over its whole life, from the stack's usage meter: single messages through
 * POST /messages, and the messages of one campaign, each until every message is `read`.
 */
export async function benchCapacity(ctx: BenchContext): Promise<Figure[]> {
  const ws = await ctx.workspace();
  await ctx.call('POST', '/api/v1/templates/sync', ws.key);

  let before = await ctx.settledUsage();
  const ids: string[] = [];
  for (let i = 0; i < SINGLE_MESSAGES; i++) {
    const reply = await ctx.call('POST', '/api/v1/messages', ws.key, { to: `+1415666${String(1000 + i)}`, template: 'welcome', variables: [`S${i}`] });
    if (reply.status !== 202) throw new Error(`send failed: ${JSON.stringify(reply.body)}`);
    ids.push(reply.body.data.message_id);
  }
  await until(async () => (await Promise.all(ids.map((id) => getMessage(ws.id, id, true)))).every((m) => m?.status === 'read'), 'single messages read');
  const single = perMessage(before, await ctx.settledUsage(), SINGLE_MESSAGES);
  const sample = (await getMessage(ws.id, ids[0], true))!;

  const campaign = (await ctx.call('POST', '/api/v1/campaigns', ws.key, { name: 'capacity', template_name: 'welcome' })).body.data;
  const recipients = Array.from({ length: CAMPAIGN_RECIPIENTS }, (_, i) => ({ phone: `+1415777${String(1000 + i)}`, variables: [`C${i}`] }));
  const campaignBefore = await ctx.settledUsage();
  const launch = await ctx.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, ws.key, { recipients });
  if (launch.status !== 202) throw new Error(`launch failed: ${JSON.stringify(launch.body)}`);
  await until(async () => (await campaignCounts(ws.id, campaign.id)).read === CAMPAIGN_RECIPIENTS, 'campaign messages read');
  const campaignAfter = await ctx.settledUsage();
  const campaignCost = perMessage(campaignBefore, campaignAfter, CAMPAIGN_RECIPIENTS);

  // The same with a budget that is never reached (contract §20): each send also reserves its estimate on a budget shard.
  const budgeted = (await ctx.call('POST', '/api/v1/campaigns', ws.key, { name: 'capacity budget', template_name: 'welcome', max_cost: '100000' })).body.data;
  const budgetedRecipients = recipients.map((recipient, i) => ({ ...recipient, phone: `+1415888${String(1000 + i)}` }));
  before = await ctx.settledUsage();
  const budgetedLaunch = await ctx.call('POST', `/api/v1/campaigns/${budgeted.id}/launch`, ws.key, { recipients: budgetedRecipients });
  if (budgetedLaunch.status !== 202) throw new Error(`launch failed: ${JSON.stringify(budgetedLaunch.body)}`);
  await until(async () => (await campaignCounts(ws.id, budgeted.id)).read === CAMPAIGN_RECIPIENTS, 'budgeted campaign messages read');
  const budgetedCost = perMessage(before, await ctx.settledUsage(), CAMPAIGN_RECIPIENTS);

  // Sent one at a time, as a business that sends now and then: no stream batch holds two messages' records.
  before = await ctx.settledUsage();
  const trickled: string[] = [];
  for (let i = 0; i < SINGLE_MESSAGES; i++) {
    const reply = await ctx.call('POST', '/api/v1/messages', ws.key, { to: `+1415555${String(1000 + i)}`, template: 'welcome', variables: [`T${i}`] });
    if (reply.status !== 202) throw new Error(`send failed: ${JSON.stringify(reply.body)}`);
    trickled.push(reply.body.data.message_id);
    await new Promise((resolve) => setTimeout(resolve, TRICKLE_GAP_MS));
  }
  await until(async () => (await Promise.all(trickled.map((id) => getMessage(ws.id, id, true)))).every((m) => m?.status === 'read'), 'trickled messages read');
  const trickle = perMessage(before, await ctx.settledUsage(), SINGLE_MESSAGES);

  // Reads that write nothing but their admission, at a dashboard's pace: what each one invokes besides its own function.
  before = await ctx.settledUsage();
  for (let i = 0; i < PACED_READS; i++) {
    await ctx.call('GET', `/api/v1/messages/${ids[0]}`, ws.key);
    await new Promise((resolve) => setTimeout(resolve, READ_GAP_MS));
  }
  const readsAfter = await ctx.settledUsage();
  const streamInvocations = [...streamFunctions].reduce(
    (sum, name) => sum + (readsAfter.lambda[name]?.invocations ?? 0) - (before.lambda[name]?.invocations ?? 0),
    0,
  );

  const stored = sample as unknown as Record<string, unknown>;
  const baseline = { writeUnits: await putOneMessageUnits(stored), readUnits: await getOneMessageUnits(stored) };
  return [
    // Issue 29: 10, the rate limit's admission (one write per API request since issue 23) paid for by taking other writes off the request path.
    // Issue 54: the burst at most USD_PER_1000_BUDGET per 1,000 messages.
    ...costFigures(`single message (${SINGLE_MESSAGES})`, single, baseline, { writeUnits: 10, usdPer1000: USD_PER_1000_BUDGET }),
    ...callFigures(`single message (${SINGLE_MESSAGES})`, single),
    // Status reports carry pricing since issue 28: the campaign's cost and the workspace's cost day are counted in these.
    ...costFigures(`campaign message (${CAMPAIGN_RECIPIENTS})`, campaignCost, baseline, { writeUnits: 12 }),
    // Issue 29: at most 6 DynamoDB calls over a campaign message's life.
    ...callFigures(`campaign message (${CAMPAIGN_RECIPIENTS})`, campaignCost, 6),
    ...costFigures(`campaign message with max_cost (${CAMPAIGN_RECIPIENTS})`, budgetedCost, baseline, { writeUnits: 12 }),
    // What a business sending now and then pays, when each status move is a counting run of its own:
    // no budget on its units; issue 54's on its cost, a message sent alone at most USD_PER_1000_BUDGET per 1,000.
    ...costFigures(`single messages sent one every ${TRICKLE_GAP_MS / 1000} s (${SINGLE_MESSAGES})`, trickle, baseline, { usdPer1000: USD_PER_1000_BUDGET }),
    {
      name: `single messages sent one every ${TRICKLE_GAP_MS / 1000} s (${SINGLE_MESSAGES}): Lambda invocations per message`,
      value: round(trickle.lambdaInvocations),
      unit: 'invocations',
      detail: trickle.breakdown.invocations,
    },
    {
      name: `GET /api/v1/messages/{id}, one every ${READ_GAP_MS} ms (${PACED_READS}): stream functions' invocations per request`,
      value: round(streamInvocations / PACED_READS),
      unit: 'invocations',
    },
    // The campaign without a budget: the partition figures' budgets were set for it.
    ...partitionLoad(`campaign of ${CAMPAIGN_RECIPIENTS}, whole loop (3 status reports each)`, campaignBefore, campaignAfter, CAMPAIGN_RECIPIENTS),
  ];
}
