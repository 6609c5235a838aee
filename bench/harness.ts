import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changesFile, meteringFile, tracingFile, type Usage } from '#local/usage-meter';
import { createKey } from '#shared/domain/api-keys';
import { widenedList } from '#shared/data/message-list-shards';
import { env as config } from '#shared/config';
import { createWorkspace } from '#shared/domain/workspaces';
import { callApi, type Reply } from '#local/api-client';
import { randomDigits } from '#local/random';
import { startLocalStack, type RunningStack } from '#local/spawn-stack';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** A budget the figure must hold: `value / baseline`, `value`, or `value - baseline` (`excess`) at most `max`. */
  budget?: { max: number; of: 'ratio' | 'value' | 'excess' };
  /** Printed under the figure's line: what explains it. */
  note?: string;
  /** Supporting numbers, written to results.json only. */
  detail?: unknown;
}

export interface BenchContext {
  stack: RunningStack;
  /**
   * A fresh workspace (plan pro) and its key, so benchmarks never share data. `ranCampaigns`: as
   * one that has run a campaign before, its message list widened long ago, so a launch times the
   * fan-out as it runs every time but the first (the first waits up to LIST_WIDENING_DELAY_MS once:
   * shared/data/message-list-shards.ts).
   */
  workspace(options?: { ranCampaigns?: boolean }): Promise<{ id: string; key: string; phoneNumberId: string }>;
  call(method: string, path: string, key: string, body?: unknown): Promise<Reply>;
  /** What the stack has consumed so far, once it has been idle for a moment (local/usage-meter.ts). */
  settledUsage(): Promise<Usage>;
  /** Starts or stops tracing the stack's invocations (their calls, depth and CPU time); returns once the idle stack shows the switch. Timed load runs untraced. */
  traceInvocations(on: boolean): Promise<void>;
  /** Starts or stops metering the stack's DynamoDB calls (capacity units, by command and partition key); returns once the idle stack shows the switch. Timed load runs unmetered. */
  meterCapacity(on: boolean): Promise<void>;
  /** Sets the Graph API simulator's fault settings (e.g. `no_webhooks`). */
  simulatorFaults(settings: Record<string, unknown>): Promise<void>;
  /** Stops the stack and removes what it left on disk. */
  stop(): Promise<void>;
}

export const median = (values: number[]) => percentile(values, 50);

/** `n` to `digits` decimals, for figures' names and values. */
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/** Starts the local stack as `npm start` would (own ports, own data folder) and points this process's data code at it. */
export async function benchContext(options: { priceTransactions?: boolean; traceInvocations?: boolean; meterCapacity?: boolean } = {}): Promise<BenchContext> {
  const meterDir = mkdtempSync(join(tmpdir(), 'bench-usage-'));
  const meterFile = join(meterDir, 'usage.json');
  // Every number at the platform's ceiling (1,000 messages/s), above what this machine reaches:
  // throughput figures measure this service, and the pacing's writes are in the partition figures.
  // The benchmarks run for many minutes: DynamoDB Local's JVM keeps its optimising compiler (local/dynamodb.ts).
  // The local IAM and settings checks (local/iam/enforcement.ts) are off: the figures are the service's own work.
  const env: Record<string, string> = { SEND_RATE_PER_SECOND: '1000', USAGE_METER_FILE: meterFile, DYNAMODB_QUICK_JVM: 'off', LOCAL_IAM: 'off' };
  if (options.priceTransactions) env.USAGE_METER_PRICE_TRANSACTIONS = '1';
  if (options.traceInvocations) writeFileSync(tracingFile(meterFile), '');
  if (options.meterCapacity) writeFileSync(meteringFile(meterFile), '');
  const stack = await startLocalStack({ env });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const pause = () => new Promise((resolve) => setTimeout(resolve, 250));
  Object.assign(process.env, { TABLE_NAME: stack.stack.table_name, DYNAMODB_ENDPOINT: stack.stack.dynamodb_endpoint });
  const settled = async (): Promise<Usage> => {
    // Idle: the meter's count of changes stayed the same for 2 s (rewritten every 250 ms while it
    // moves); then its totals, written once the count stood still, as of that count.
    const deadline = Date.now() + 120_000;
    const overdue = () => {
      // What the stack printed last names what kept it busy (a batch retried, a poller's error).
      if (Date.now() > deadline) throw new Error(`the local stack did not become idle within 2 minutes; its output ends:\n${stack.output().slice(-4000)}`);
    };
    let last = read(changesFile(meterFile));
    for (let still = 0; still < 8; ) {
      overdue();
      await pause();
      const now = read(changesFile(meterFile));
      still = now === last ? still + 1 : 0;
      last = now;
    }
    for (;;) {
      const text = read(meterFile);
      const usage = text ? (JSON.parse(text) as Usage) : undefined;
      if (usage && String(usage.changes) === last) return usage;
      overdue();
      await pause();
    }
  };
  /** Creates or removes one of the meter's switch files, then waits until the idle stack's totals show the switch. */
  const switched = async (file: string, on: boolean, state: (usage: Usage) => boolean) => {
    if (on) writeFileSync(file, '');
    else rmSync(file, { force: true });
    while (state(await settled()) !== on);
  };
  return {
    stack,
    workspace: async (options = {}) => {
      const ws = await createWorkspace({ name: 'Bench', plan: 'pro', phone_number_id: randomDigits(15), waba_id: randomDigits(15) });
      if (options.ranCampaigns) await widenedList(ws.id, Date.now() - config.listWideningDelayMs);
      const key = await createKey(ws.id, { name: 'bench' });
      return { id: ws.id, key: key.api_key, phoneNumberId: ws.phone_number_id };
    },
    call: (method, path, key, body) => callApi(stack.stack.base_url, method, path, { key, body }),
    settledUsage: () => settled(),
    traceInvocations: (on) => switched(tracingFile(meterFile), on, (usage) => usage.tracing),
    meterCapacity: (on) => switched(meteringFile(meterFile), on, (usage) => usage.metering),
    stop: async () => {
      await stack.stop();
      rmSync(meterDir, { recursive: true, force: true });
    },
    simulatorFaults: async (settings) => {
      const reply = await callApi(stack.stack.simulator_url, 'POST', '/_simulate/faults', { body: settings });
      if (reply.status !== 200) throw new Error(`simulator faults: ${JSON.stringify(reply.body)}`);
    },
  };
}
