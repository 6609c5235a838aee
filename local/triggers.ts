import type { Operation, Trigger } from '#shared/service/operation';
import { operations } from '#shared/service/operations';

export type TriggerType = Trigger['type'];
export type OperationWith<K extends TriggerType> = Operation & { trigger: Extract<Trigger, { type: K }> };

/** The operations each part of the local stack runs; every part takes its own from `localWiring`, none from the list itself. */
export interface LocalWiring {
  /** Routes of local/api-server.ts. */
  routes: OperationWith<'http'>[];
  /** What local/api-server.ts invokes when no route matches. */
  fallback?: OperationWith<'httpDefault'>;
  /** Timers of local/schedules.ts. */
  schedules: OperationWith<'schedule'>[];
  /** One local/queue-poller.ts each, started by local/runtime.ts. */
  queuePollers: OperationWith<'queue'>[];
  /** One local/queue-poller.ts each on the queue's dead-letter queue, started by local/runtime.ts. */
  deadLetterPollers: OperationWith<'deadLetters'>[];
  /** Fed by one reader of the stream (local/stream-poller.ts), started by local/runtime.ts. */
  streamPollers: OperationWith<'tableStream'>[];
  /** One local/queue-poller.ts each on the stream-failure queue the stream pollers report to. */
  streamFailurePollers: OperationWith<'streamFailures'>[];
  /** What local/scheduler-server.ts invokes when a schedule targets it. */
  scheduleTargets: OperationWith<'scheduleTarget'>[];
  /** Rules local/event-bus-server.ts applies to each event put on it. */
  busRules: OperationWith<'busRule'>[];
}

type WireLocally<K extends TriggerType> = (operation: OperationWith<K>, wiring: LocalWiring) => void;

/**
 * How each trigger type runs locally, as `wireTrigger` in lib/trigger-wiring.ts wires it in AWS.
 * Mapped over the whole `Trigger` union: a trigger type added to shared/service/operation.ts
 * does not compile here until it runs locally too.
 */
export const wireLocally: { [K in TriggerType]: WireLocally<K> } = {
  http: (operation, wiring) => wiring.routes.push(operation),
  // API Gateway's `$default` route is a single route: the first such operation takes it.
  httpDefault: (operation, wiring) => void (wiring.fallback ??= operation),
  // No EventBridge rate rule locally: a timer runs it once at start-up, after the demo workspace
  // exists (so a fresh stack has its templates synced before it reports ready), then at its rate.
  schedule: (operation, wiring) => wiring.schedules.push(operation),
  queue: (operation, wiring) => wiring.queuePollers.push(operation),
  deadLetters: (operation, wiring) => wiring.deadLetterPollers.push(operation),
  tableStream: (operation, wiring) => wiring.streamPollers.push(operation),
  streamFailures: (operation, wiring) => wiring.streamFailurePollers.push(operation),
  scheduleTarget: (operation, wiring) => wiring.scheduleTargets.push(operation),
  busRule: (operation, wiring) => wiring.busRules.push(operation),
};

function wire(list: Operation[]): LocalWiring {
  const wiring: LocalWiring = {
    routes: [],
    schedules: [],
    queuePollers: [],
    deadLetterPollers: [],
    streamPollers: [],
    streamFailurePollers: [],
    scheduleTargets: [],
    busRules: [],
  };
  for (const operation of list) (wireLocally[operation.trigger.type] as WireLocally<TriggerType>)(operation, wiring);
  return wiring;
}

export const localWiring: LocalWiring = wire(operations);
