import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which function the code running now belongs to, as Lambda knows it by the process it runs in.
 * The local stack runs every function in one process, so each invocation (local/handlers.ts) runs
 * in a context of its own, and the AWS calls and settings it reads are charged to its function:
 * its role decides the calls (local/iam/enforcement.ts), its template environment the settings
 * (local/iam/environment.ts). Lambda's own pollers (the queue and stream event sources) call with
 * the role of the functions they feed: their calls run as `eventSource` of those functions.
 */
export interface FunctionContext {
  /** The functions (operations' names) whose roles make the calls: one, or every consumer of a stream read once for all. */
  functions: string[];
  /** `code`: the function's own code; `eventSource`: Lambda's poller of its trigger, with the function's role. */
  via: 'code' | 'eventSource';
}

const contexts = new AsyncLocalStorage<FunctionContext>();

/** Runs `work` (and whatever it starts) as the code of `functionName`. */
export const runAsFunction = <T>(functionName: string, work: () => T): T => contexts.run({ functions: [functionName], via: 'code' }, work);

/** Runs `work` as Lambda's event source of these functions: its calls are made with their roles. */
export const runAsEventSource = <T>(functionNames: string[], work: () => T): T => contexts.run({ functions: functionNames, via: 'eventSource' }, work);

/** The context of the code running now, if it is a function's. */
export const currentFunction = (): FunctionContext | undefined => contexts.getStore();

/** Runs `work` as no function's doing (the local stack's own bookkeeping inside an invocation). */
export const outsideFunctions = <T>(work: () => T): T => contexts.exit(work);
