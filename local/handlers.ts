import { resolve } from 'node:path';
import type { Operation } from '#shared/service/operation';
import { meterInvocation } from '#local/usage-meter';
import { traceInvocation } from '#local/invocation-trace';
import { runAsFunction } from '#local/function-context';
import { startLocalChecks } from '#local/iam/enforcement';

export type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const root = resolve(__dirname, '..');
const loaded = new Map<string, Promise<Handler>>();

/**
 * Imports an operation's handler module once, the way Lambda loads its bundle at cold start. Each
 * invocation runs as its function (local/function-context.ts): its AWS calls are checked against its
 * role in the template, the settings it reads against its environment there (local/iam/enforcement.ts).
 */
export function loadHandler(operation: Operation): Promise<Handler> {
  let handler = loaded.get(operation.name);
  if (!handler) {
    handler = startLocalChecks()
      .then(() => runAsFunction(operation.name, () => import(resolve(root, operation.handler))))
      .then((module) => {
        const loadedHandler = (module.handler ?? module.default?.handler) as Handler;
        if (typeof loadedHandler !== 'function') throw new Error(`${operation.handler} exports no handler function`);
        return async (event, context) => {
          const start = performance.now();
          const { trace, outcome } = await traceInvocation(async () => runAsFunction(operation.name, () => loadedHandler(event, context)));
          meterInvocation(operation.name, event, performance.now() - start, trace);
          if (outcome.status === 'rejected') throw outcome.reason;
          return outcome.value;
        };
      });
    loaded.set(operation.name, handler);
  }
  return handler;
}
