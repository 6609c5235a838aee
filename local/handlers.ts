import { resolve } from 'node:path';
import type { Operation } from '#lib/operations';

export type Handler = (event: unknown, context: unknown) => Promise<unknown>;

const root = resolve(__dirname, '..');
const loaded = new Map<string, Promise<Handler>>();

/** Imports an operation's handler module once, the way Lambda loads its bundle at cold start. */
export function loadHandler(operation: Operation): Promise<Handler> {
  let handler = loaded.get(operation.name);
  if (!handler) {
    handler = import(resolve(root, operation.handler)).then((module) => (module.handler ?? module.default?.handler) as Handler);
    loaded.set(operation.name, handler);
  }
  return handler;
}
