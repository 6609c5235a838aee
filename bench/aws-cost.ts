import type { Usage } from '#local/usage-meter';
import { operations } from '#shared/service/operations';
import { round } from './harness';
import { allFunctionsBetween, sumOfCounts } from './invocations';

/**
 * What messages cost over their whole life, from the stack's usage meter (local/usage-meter.ts):
 * DynamoDB units, Lambda invocations and time, SQS requests, events and API requests per message,
 * and in dollars per 1,000 messages at AWS's prices.
 */

/** AWS on-demand prices, us-east-1, as of 2026-11 (USD). See docs/performance.md. */
export const PRICE = {
  dynamodbWriteUnit: 0.625 / 1e6,
  dynamodbReadUnit: 0.125 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  /** arm64, per GB-second, at the functions' 512 MB. */
  lambdaGbSecond: 0.0000133334,
  lambdaMemoryGb: 0.5,
  sqsRequest: 0.4 / 1e6,
  eventBridgeEvent: 1 / 1e6,
  httpApiRequest: 1 / 1e6,
};

/** The functions of the operations whose trigger is of one of these types. */
export const functionsTriggeredBy = (...types: string[]) => new Set(operations.filter((op) => types.includes(op.trigger.type)).map((op) => op.name));
/** Behind API Gateway: billed per request there too. */
const httpFunctions = functionsTriggeredBy('http', 'httpDefault');
const queueFunctions = functionsTriggeredBy('queue');

export interface LifetimeCost {
  writeUnits: number;
  readUnits: number;
  lambdaInvocations: number;
  lambdaMs: number;
  sqsRequests: number;
  events: number;
  apiRequests: number;
  /** AWS SDK calls the functions made, by service (`DynamoDB`, `SQS`, `EventBridge`, …). */
  awsCalls: Record<string, number>;
  /** Each invocation's DynamoDB depth (its critical path), summed over the invocations. */
  dynamodbDepth: number;
  /** The functions' CPU time. */
  cpuMs: number;
  /** Write units on platform-id items: 1 a message, and 1 more for each status report that overtook its worker's write and put the item too. */
  platformIdWrites: number;
  usdPer1000: { dynamodb: number; lambda: number; sqs: number; eventbridge: number; apiGateway: number; total: number };
  /** Where the units and invocations went, per message. */
  breakdown: { by_command: Record<string, Record<string, number>>; by_index: Record<string, Record<string, number>>; invocations: Record<string, number> };
}

/** `after - before` of each numeric field, divided by `messages`, rounded; zero entries left out. */
function perMessageDiff(after: Record<string, Record<string, number>>, before: Record<string, Record<string, number>>, messages: number) {
  const result: Record<string, Record<string, number>> = {};
  for (const [name, values] of Object.entries(after)) {
    const entry = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, round((value - (before[name]?.[field] ?? 0)) / messages, 3)]));
    if (Object.values(entry).some((value) => value !== 0)) result[name] = entry;
  }
  return result;
}

/** What `after - before` cost per message, and in dollars per 1,000 messages. */
export function perMessage(before: Usage, after: Usage, messages: number): LifetimeCost {
  const per = (n: number) => n / messages;
  const lambda = Object.entries(after.lambda).map(([name, a]) => {
    const b = before.lambda[name] ?? { invocations: 0, records: 0, ms: 0 };
    return { name, invocations: a.invocations - b.invocations, records: a.records - b.records, ms: a.ms - b.ms };
  });
  const invocations = lambda.reduce((sum, f) => sum + f.invocations, 0);
  const ms = lambda.reduce((sum, f) => sum + f.ms, 0);
  // SQS: one send per record, one receive and one delete per batch (Lambda's poller); empty polls are not per message.
  const sqsRequests = lambda.filter((f) => queueFunctions.has(f.name)).reduce((sum, f) => sum + f.records + 2 * f.invocations, 0);
  const apiRequests = lambda.filter((f) => httpFunctions.has(f.name)).reduce((sum, f) => sum + f.invocations, 0);
  const writeUnits = per(after.dynamodb.write_units - before.dynamodb.write_units);
  const readUnits = per(after.dynamodb.read_units - before.dynamodb.read_units);
  const events = per(after.eventbridge.events - before.eventbridge.events);
  const traced = allFunctionsBetween(before, after);
  const usd = {
    dynamodb: 1000 * (writeUnits * PRICE.dynamodbWriteUnit + readUnits * PRICE.dynamodbReadUnit),
    lambda: 1000 * per(invocations * PRICE.lambdaRequest + (ms / 1000) * PRICE.lambdaMemoryGb * PRICE.lambdaGbSecond),
    sqs: 1000 * per(sqsRequests) * PRICE.sqsRequest,
    eventbridge: 1000 * events * PRICE.eventBridgeEvent,
    apiGateway: 1000 * per(apiRequests) * PRICE.httpApiRequest,
  };
  return {
    writeUnits,
    readUnits,
    lambdaInvocations: per(invocations),
    lambdaMs: per(ms),
    sqsRequests: per(sqsRequests),
    events,
    apiRequests: per(apiRequests),
    awsCalls: Object.fromEntries(Object.entries(traced.calls).map(([service, n]) => [service, per(n)])),
    dynamodbDepth: per(sumOfCounts(traced.dynamodb_depths)),
    cpuMs: per(traced.cpu_ms),
    platformIdWrites: per(
      Object.entries(after.dynamodb.by_partition)
        .filter(([key]) => key.includes('#WAMID#'))
        .reduce((sum, [key, units]) => sum + units.write_units - (before.dynamodb.by_partition[key]?.write_units ?? 0), 0),
    ),
    usdPer1000: { ...usd, total: Object.values(usd).reduce((a, b) => a + b, 0) },
    breakdown: {
      by_command: perMessageDiff(after.dynamodb.by_command, before.dynamodb.by_command, messages),
      by_index: perMessageDiff(after.dynamodb.by_index, before.dynamodb.by_index, messages),
      invocations: Object.fromEntries(lambda.filter((f) => f.invocations).map((f) => [f.name, round(f.invocations / messages, 3)])),
    },
  };
}
