import autocannon from 'autocannon';
import { percentile, type BenchContext } from './harness';
import { stackCpuMs, type StackProcess } from './process-cpu';

/**
 * Steady load for the API overhead benchmark (bench/api-overhead.ts): CONNECTIONS concurrent
 * connections or loops for SECONDS, on an endpoint of the stack or on the raw DynamoDB calls an
 * operation needs, every response timed, and the CPU time each process spent on it.
 */
export const CONNECTIONS = 4;
export const SECONDS = 4;

export interface Latencies {
  p50: number;
  p95: number;
  p99: number;
  requests: number;
}

/** CPU time per request or raw operation, by process, in ms: the stack's processes and this one (the load generator, or the raw calls' client). */
export type CpuPerRequest = Record<StackProcess | 'benchmark', number>;

/** Runs `load`, then waits until the stack is idle (a send a request started is its cost too), and shares the CPU every process used meanwhile among the requests. */
export async function withCpu(ctx: BenchContext, load: () => Promise<Latencies>): Promise<{ latencies: Latencies; cpu: CpuPerRequest }> {
  const stackBefore = stackCpuMs(ctx.stack.pid);
  const benchBefore = process.cpuUsage();
  const latencies = await load();
  await ctx.settledUsage();
  const stackAfter = stackCpuMs(ctx.stack.pid);
  const bench = process.cpuUsage(benchBefore);
  const per = (ms: number) => ms / latencies.requests;
  return {
    latencies,
    cpu: {
      'DynamoDB Local': per(stackAfter['DynamoDB Local'] - stackBefore['DynamoDB Local']),
      stack: per(stackAfter.stack - stackBefore.stack),
      'SQS emulator': per(stackAfter['SQS emulator'] - stackBefore['SQS emulator']),
      benchmark: per((bench.user + bench.system) / 1000),
    },
  };
}

const summary = (ms: number[]): Latencies => ({ p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), requests: ms.length });

/** Steady load on one endpoint: CONNECTIONS keep-alive connections for SECONDS, every response timed. */
export async function loadApi(url: string, key: string, method: 'GET' | 'POST', body?: unknown): Promise<Latencies> {
  const ms: number[] = [];
  let failures = 0;
  let instance!: autocannon.Instance;
  const finished = new Promise<void>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        method,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      },
      (error, result) => {
        if (error) return reject(error);
        // Connection errors and timeouts are not responses: they would vanish from the percentiles.
        if (result.errors || result.timeouts) return reject(new Error(`${method} ${url}: ${result.errors} errors, ${result.timeouts} timeouts`));
        resolve();
      },
    );
  });
  // The instance emits (client, status, bytes, ms); @types/autocannon leaves the client out.
  (instance as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status >= 300) failures++;
    ms.push(responseTime);
  });
  await finished;
  if (failures) throw new Error(`${method} ${url}: ${failures} responses were not 2xx`);
  return summary(ms);
}

/** The same steady load, as CONNECTIONS loops issuing the raw DynamoDB calls the operation needs. */
export async function loadRaw(operation: () => Promise<unknown>): Promise<Latencies> {
  const ms: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        await operation();
        ms.push(performance.now() - start);
      }
    }),
  );
  return summary(ms);
}
