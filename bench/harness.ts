import { createKey } from '#shared/domain/api-keys';
import { createWorkspace } from '#shared/domain/workspaces';
import { callApi, type Reply } from '#local/api-client';
import { randomDigits } from '#local/random';
import { startLocalStack, type RunningStack } from '#local/spawn-stack';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** A budget the figure must hold: `value / baseline` (or `value`) at most `max`. */
  budget?: { max: number; of: 'ratio' | 'value' };
}

export interface BenchContext {
  stack: RunningStack;
  /** A fresh workspace (plan pro) and its key, so benchmarks never share data. */
  workspace(): Promise<{ id: string; key: string; phoneNumberId: string }>;
  call(method: string, path: string, key: string, body?: unknown): Promise<Reply>;
}

export const median = (values: number[]) => percentile(values, 50);

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
export async function benchContext(): Promise<BenchContext> {
  const stack = await startLocalStack();
  Object.assign(process.env, { TABLE_NAME: stack.stack.table_name, DYNAMODB_ENDPOINT: stack.stack.dynamodb_endpoint });
  return {
    stack,
    workspace: async () => {
      const ws = await createWorkspace({ name: 'Bench', plan: 'pro', phone_number_id: randomDigits(15), waba_id: randomDigits(15) });
      const key = await createKey(ws.id, { name: 'bench' });
      return { id: ws.id, key: key.api_key, phoneNumberId: ws.phone_number_id };
    },
    call: (method, path, key, body) => callApi(stack.stack.base_url, method, path, { key, body }),
  };
}
