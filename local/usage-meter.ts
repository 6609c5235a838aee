import { existsSync, writeFileSync } from 'node:fs';
import { DynamoDBClient, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableClient } from '#shared/data/table/client';
import { awsClientConfig } from '#local/sdk-client-config';
import { env } from '#shared/config';
import { transactionWriteUnits } from '#local/transaction-capacity';
import { touchedPartitions, type TouchedPartitions } from '#local/partitions';
import { outsideInvocations, startInvocationTracing, stopInvocationTracing, type AwsCall, type InvocationTrace } from '#local/invocation-trace';
import { longestChain } from '#local/critical-path';

/** What the local stack consumed, counted the way AWS bills it. Benchmarks read it from a file. */
export interface Usage {
  dynamodb: {
    /** Capacity units reported by DynamoDB Local (ReturnConsumedCapacity INDEXES), table and indexes. */
    read_units: number;
    write_units: number;
    /** Units per table or index name, e.g. `byParent`. */
    by_index: Record<string, { read_units: number; write_units: number }>;
    /** Calls and units per command, e.g. `TransactWriteItemsCommand`. */
    by_command: Record<string, { calls: number; read_units: number; write_units: number }>;
    /** Conditional writes DynamoDB refused; AWS bills each (at least 1 unit, counted in write_units), DynamoDB Local reports nothing. */
    conditional_failures: number;
    /**
     * Units per partition key, `PK` for the table and `index:key` for an index entry: a call's units
     * shared evenly by the keys it touches (exact for single-item calls). See local/partitions.ts.
     */
    by_partition: Record<string, { read_units: number; write_units: number }>;
  };
  /** Per function: invocations, records, summed duration, and what the invocations did (local/invocation-trace.ts). */
  lambda: Record<string, FunctionUsage>;
  eventbridge: { events: number };
  /** Whether invocations were being traced when the file was written (tracingFile). */
  tracing: boolean;
  /** Whether DynamoDB calls were being metered when the file was written (meteringFile): `dynamodb` counts only calls made while they were. */
  metering: boolean;
  /** How many calls, invocations and event batches were counted: the file shows the usage as of this count. */
  changes: number;
}

export interface FunctionUsage {
  invocations: number;
  records: number;
  ms: number;
  /** AWS SDK calls the invocations made, by service: `DynamoDB`, `SQS`, `EventBridge`, `Scheduler`, `Secrets Manager`. */
  calls: Record<string, number>;
  /** Invocations by DynamoDB depth: the most DynamoDB calls in one chain of calls each started after the one before had ended. */
  dynamodb_depths: Record<string, number>;
  /** Invocations by the commands of their longest chain of DynamoDB calls, e.g. `Get → Update → TransactWrite`. */
  dynamodb_chains: Record<string, number>;
  /** Invocations by the services on their longest chain of AWS calls, e.g. `DynamoDB 3, SQS 1` (`none`: no call). */
  critical_paths: Record<string, number>;
  /** Time the stack's thread ran the invocations' code, in ms. */
  cpu_ms: number;
}

const READS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

let usage: Usage | undefined;

function emptyUsage(): Usage {
  return {
    dynamodb: { read_units: 0, write_units: 0, by_index: {}, by_command: {}, conditional_failures: 0, by_partition: {} },
    lambda: {},
    eventbridge: { events: 0 },
    tracing: false,
    metering: false,
    changes: 0,
  };
}

/** Shares `units` of the table or of one index evenly among the partition keys the call touched there. */
function addToPartitions(kind: 'read_units' | 'write_units', keys: string[], units: number) {
  for (const key of keys) (usage!.dynamodb.by_partition[key] ??= { read_units: 0, write_units: 0 })[kind] += units / keys.length;
}

function addCapacity(
  command: string,
  kind: 'read_units' | 'write_units',
  capacity: ConsumedCapacity | ConsumedCapacity[] | undefined,
  touched: TouchedPartitions,
) {
  if (!usage || !capacity) return;
  for (const consumed of [capacity].flat()) {
    usage.dynamodb[kind] += consumed.CapacityUnits ?? 0;
    usage.dynamodb.by_command[command][kind] += consumed.CapacityUnits ?? 0;
    const parts: [string, number | undefined][] = [
      [consumed.TableName ?? 'table', consumed.Table?.CapacityUnits],
      ...Object.entries(consumed.GlobalSecondaryIndexes ?? {}).map(([name, c]) => [name, c.CapacityUnits] as [string, number | undefined]),
    ];
    for (const [name, units] of parts) {
      const entry = (usage.dynamodb.by_index[name] ??= { read_units: 0, write_units: 0 });
      entry[kind] += units ?? 0;
    }
    addToPartitions(kind, touched.table, consumed.Table?.CapacityUnits ?? 0);
    for (const [name, c] of Object.entries(consumed.GlobalSecondaryIndexes ?? {}))
      addToPartitions(kind, touched.indexes[name] ?? [`${name}:?`], c.CapacityUnits ?? 0);
  }
}

function addUnits(command: string, units: { table: number; byIndex: Record<string, number> }, tableName: string, touched: TouchedPartitions) {
  if (!usage) return;
  const total = units.table + Object.values(units.byIndex).reduce((a, b) => a + b, 0);
  usage.dynamodb.write_units += total;
  usage.dynamodb.by_command[command].write_units += total;
  for (const [name, value] of [[tableName, units.table], ...Object.entries(units.byIndex)] as [string, number][]) {
    (usage.dynamodb.by_index[name] ??= { read_units: 0, write_units: 0 }).write_units += value;
  }
  addToPartitions('write_units', touched.table, units.table);
  for (const [name, value] of Object.entries(units.byIndex)) addToPartitions('write_units', touched.indexes[name] ?? [`${name}:?`], value);
}

/** The file a meter writing `file` keeps its count of changes in, rewritten every 250 ms while they move. */
export const changesFile = (file: string) => `${file}.changes`;

/** While this file exists beside the meter's `file`, invocations are traced; the meter looks every 250 ms. */
export const tracingFile = (file: string) => `${file}.tracing`;

/** While this file exists beside the meter's `file`, DynamoDB calls are metered; the meter looks every 250 ms. */
export const meteringFile = (file: string) => `${file}.metering`;

/** Follows the tracing and metering files; a switch counts as a change, so the totals are written with it. */
function followSwitchFiles(file: string) {
  const tracing = existsSync(tracingFile(file));
  if (tracing !== usage!.tracing) {
    if (tracing) startInvocationTracing();
    else stopInvocationTracing();
    usage!.tracing = tracing;
    usage!.changes++;
  }
  const metering = existsSync(meteringFile(file));
  if (metering !== usage!.metering) {
    usage!.metering = metering;
    usage!.changes++;
  }
}

/**
 * Starts the meter when USAGE_METER_FILE is set (benchmarks set it). While the metering file
 * exists (meteringFile), every DynamoDB call through `client` asks for its consumed capacity and
 * is counted, by command and by partition key. Off, a call is only counted as a change (the
 * benchmarks' sign of a busy stack): asking DynamoDB Local for capacity and sharing it among keys
 * made the p50 of `POST /messages` 15% higher in the api group (docs/performance.md), a cost no baseline and no
 * AWS deployment carries, so timed load runs unmetered. While calls keep coming only the count of changes is
 * written (changesFile), every 250 ms; the totals once a 250 ms tick finds it still. Serialising
 * the totals, whose partition map grows to hundreds of thousands of keys, four times a second
 * took a third of the stack's one thread from the handlers being timed.
 * While the tracing file exists (tracingFile), handler invocations are traced (local/invocation-trace.ts):
 * their AWS calls, the chains those calls form, and their CPU time are counted per function. Off
 * by default: the async hooks time every callback, a cost timed load must not carry.
 * With USAGE_METER_PRICE_TRANSACTIONS set, each TransactWriteItems is priced item by item
 * (local/transaction-capacity.ts), reading its items back once it committed; off by default,
 * because those reads add load to timing benchmarks.
 */
export function startUsageMeter(client: TableClient): { stop(): void } | undefined {
  const file = process.env.USAGE_METER_FILE;
  if (!file) return undefined;
  usage = emptyUsage();
  followSwitchFiles(file);
  const priceTransactions = Boolean(process.env.USAGE_METER_PRICE_TRANSACTIONS);
  const unmetered = DynamoDBDocumentClient.from(new DynamoDBClient(awsClientConfig(env.dynamodbEndpoint)));
  const tableName = env.tableName;
  const readBack = async (key: Record<string, unknown>) =>
    (await unmetered.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  // The meter's own work is kept out of the invocations' CPU time and calls (local/invocation-trace.ts).
  client.intercept(async ({ commandName: command, input }, next) => {
    if (!usage!.metering) {
      usage!.changes++;
      return next(input);
    }
    const kind = READS.has(command) ? 'read_units' : WRITES.has(command) ? 'write_units' : undefined;
    const touched = outsideInvocations(() => {
      if (kind) input.ReturnConsumedCapacity ??= 'INDEXES';
      (usage!.dynamodb.by_command[command] ??= { calls: 0, read_units: 0, write_units: 0 }).calls++;
      usage!.changes++;
      return touchedPartitions(command, input);
    });
    try {
      const output = await next(input);
      if (priceTransactions && command === 'TransactWriteItemsCommand') {
        const { TransactItems } = input as { TransactItems: Parameters<typeof transactionWriteUnits>[0] };
        const units = await outsideInvocations(() => transactionWriteUnits(TransactItems, readBack));
        outsideInvocations(() => addUnits(command, units, tableName, touched));
      } else if (kind) {
        const { ConsumedCapacity } = output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
        outsideInvocations(() => addCapacity(command, kind, ConsumedCapacity, touched));
      }
      return output;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') {
        usage!.dynamodb.conditional_failures++;
        outsideInvocations(() => addUnits(command, { table: 1, byIndex: {} }, tableName, { table: touched.table, indexes: {} }));
      }
      throw error;
    }
  });
  let ticked = -1;
  let written = -1;
  const timer = setInterval(() => {
    followSwitchFiles(file);
    const { changes } = usage!;
    if (changes !== ticked) {
      writeFileSync(changesFile(file), String((ticked = changes)));
      return;
    }
    if (written === changes) return;
    writeFileSync(file, JSON.stringify(usage));
    written = changes;
  }, 250);
  return { stop: () => clearInterval(timer) };
}

const count = (counts: Record<string, number>, key: string | number, by = 1) => (counts[key] = (counts[key] ?? 0) + by);

/** `DynamoDB 3, SQS 1`: the calls of a chain by service, in a fixed order; `none` for no call. */
function pathKey(chain: AwsCall[]): string {
  const byService: Record<string, number> = {};
  for (const call of chain) count(byService, call.service);
  const services = Object.keys(byService).sort();
  return services.length ? services.map((service) => `${service} ${byService[service]}`).join(', ') : 'none';
}

/** A function's usage before its first invocation. */
export const emptyFunctionUsage = (): FunctionUsage => ({
  invocations: 0,
  records: 0,
  ms: 0,
  calls: {},
  dynamodb_depths: {},
  dynamodb_chains: {},
  critical_paths: {},
  cpu_ms: 0,
});

/** Adds what one traced invocation did to its function's usage: its calls, their chains, its CPU time. */
export function countTrace(entry: FunctionUsage, trace: InvocationTrace): void {
  for (const call of trace.calls) count(entry.calls, call.service);
  // A call still running when the handler returned (Lambda would freeze it) is counted, on no chain.
  const ended = trace.calls.filter((call) => call.end);
  const dynamodbChain = longestChain(ended.filter((call) => call.service === 'DynamoDB'));
  count(entry.dynamodb_depths, dynamodbChain.length);
  count(entry.dynamodb_chains, dynamodbChain.map((call) => call.command).join(' → ') || 'none');
  count(entry.critical_paths, pathKey(longestChain(ended)));
  entry.cpu_ms += trace.cpuMs;
}

/** Counts one invocation of a function, with what it did when invocations are traced (when metering). */
export function meterInvocation(functionName: string, event: unknown, ms: number, trace: InvocationTrace | undefined): void {
  if (!usage) return;
  const entry = (usage.lambda[functionName] ??= emptyFunctionUsage());
  entry.invocations++;
  entry.records += (event as { Records?: unknown[] })?.Records?.length ?? 0;
  entry.ms += ms;
  usage.changes++;
  if (trace) countTrace(entry, trace);
}

/** Counts events put on the bus (when metering). */
export function meterEvents(count: number): void {
  if (!usage) return;
  usage.eventbridge.events += count;
  usage.changes++;
}
