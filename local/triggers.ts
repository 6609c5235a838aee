import { operations, type Operation, type Trigger } from '#shared/service/operations';

export type TriggerType = Trigger['type'];
export type OperationWith<K extends TriggerType> = Operation & { trigger: Extract<Trigger, { type: K }> };

/**
 * Which part of the local stack runs each trigger type, as lib/stateless-stack.ts wires each
 * one in CDK. Typed over the whole `Trigger` union: a trigger type added to
 * shared/service/operations.ts fails to compile here until it runs locally too.
 */
export const localRunners = {
  http: 'local/api-server.ts',
  httpDefault: 'local/api-server.ts',
  /** Runs once at start-up (after the demo workspace exists), then at its rate. */
  schedule: 'local/schedules.ts',
  queue: 'local/runtime.ts',
  tableStream: 'local/runtime.ts',
  scheduleTarget: 'local/scheduler-server.ts',
  busRule: 'local/event-bus-server.ts',
} as const satisfies Record<TriggerType, string>;

/** The operations with one trigger type, typed by it. Every part of the local stack selects its operations here. */
export function operationsWith<K extends TriggerType>(type: K): OperationWith<K>[] {
  return operations.filter((operation): operation is OperationWith<K> => operation.trigger.type === type);
}
