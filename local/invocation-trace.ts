import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import type { Span } from '#local/critical-path';
import { Client } from '@smithy/core/client';
import { TableClient } from '#shared/data/table/client';
import { outsideFunctions } from '#local/function-context';

/** An AWS call an invocation made: the client's service (`DynamoDB`, `SQS`, …), its command (`Get`, `TransactWrite`, …) and when it ran. */
export interface AwsCall extends Span {
  service: string;
  command: string;
}

/** What one handler invocation did, as the meter counts it (local/usage-meter.ts). */
export interface InvocationTrace {
  calls: AwsCall[];
  /** Time the stack's thread spent running this invocation's code (its synchronous slices), in ms. */
  cpuMs: number;
}

const invocations = new AsyncLocalStorage<InvocationTrace>();
let tracing = false;
let awsCallsRecorded = false;

/**
 * CPU time: each synchronous slice of JavaScript (a callback, a promise reaction) is timed and
 * charged to the invocation whose context it runs in, through the async hooks' before/after around
 * every slice. The slice being timed is `running`; a nested slice interrupts it and resumes it after.
 */
let running: InvocationTrace | undefined;
let sliceStart = 0;
const interrupted: (InvocationTrace | undefined)[] = [];

function runningNow(trace: InvocationTrace | undefined) {
  const now = performance.now();
  if (running) running.cpuMs += now - sliceStart;
  running = trace;
  sliceStart = now;
}

const cpuHook = createHook({
  before() {
    interrupted.push(running);
    runningNow(invocations.getStore());
  },
  after() {
    runningNow(interrupted.pop());
  },
});

type Send = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/** Wraps `prototype[method]` so each call made in an invocation's context is recorded there, with its start and end; `describe` names it, or leaves it out. */
function recordCalls(
  prototype: Record<string, Send>,
  method: string,
  describe: (client: unknown, args: unknown[]) => { service: string; command: string } | undefined,
) {
  const original = prototype[method];
  prototype[method] = function (this, ...args) {
    const trace = invocations.getStore();
    const described = trace && describe(this, args);
    if (!trace || !described) return original.apply(this, args);
    const call: AwsCall = { ...described, start: performance.now(), end: 0 };
    trace.calls.push(call);
    return original.apply(this, args).finally(() => (call.end = performance.now()));
  };
}

/**
 * Records the calls of the table's client (`Get`, `Update`, … as its commands are named) and of
 * the SDK's other clients, whose `send` is their shared base class's (by command, each with its
 * retries; the table's own calls through the document client are counted at the table's client), once.
 */
function recordAwsCalls() {
  recordCalls(TableClient.prototype as unknown as Record<string, Send>, 'send', (_, [command]) => ({
    service: 'DynamoDB',
    command: (command as object).constructor.name.replace(/Command$/, ''),
  }));
  recordCalls(Client.prototype as unknown as Record<string, Send>, 'send', (client, [command, callback]) => {
    const { serviceId } = (client as { config: { serviceId?: string } }).config;
    // The service only awaits calls: a call with a callback returns nothing to time.
    if (serviceId === 'DynamoDB' || typeof callback === 'function') return undefined;
    return { service: serviceId ?? 'unknown', command: (command as object).constructor.name.replace(/Command$/, '') };
  });
}

/**
 * Starts tracing invocations (benchmarks: the usage meter's tracing file exists). Every AWS call a handler makes
 * is recorded with its start and end, and every slice of its code is timed; the hooks cost each
 * callback two clock readings, which is why only a traced stack pays them.
 */
export function startInvocationTracing(): void {
  if (tracing) return;
  if (!awsCallsRecorded) recordAwsCalls();
  awsCallsRecorded = true;
  tracing = true;
  cpuHook.enable();
}

/** Stops tracing (a benchmark that traced a few calls of its own): the hooks' cost ends with it. */
export function stopInvocationTracing(): void {
  tracing = false;
  cpuHook.disable();
  runningNow(undefined);
  interrupted.length = 0;
}

/** Runs one handler invocation in a context of its own, and returns what it did (no trace when not tracing). */
export async function traceInvocation<T>(invoke: () => Promise<T>): Promise<{ trace?: InvocationTrace; outcome: PromiseSettledResult<T> }> {
  if (!tracing) return { outcome: await settle(invoke()) };
  const trace: InvocationTrace = { calls: [], cpuMs: 0 };
  // The handler's first synchronous slice runs inside the caller's (a server's or a poller's callback).
  const caller = running;
  runningNow(trace);
  const pending = invocations.run(trace, invoke);
  runningNow(caller);
  return { trace, outcome: await settle(pending) };
}

const settle = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> =>
  promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );

/** Runs `work` as none of the invocations' doing (nor any function's: local/function-context.ts): the meter's own bookkeeping and reads. */
export function outsideInvocations<T>(work: () => T): T {
  if (!tracing) return outsideFunctions(work);
  const current = running;
  runningNow(undefined);
  try {
    return invocations.exit(() => outsideFunctions(work));
  } finally {
    runningNow(current);
  }
}
