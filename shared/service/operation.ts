/**
 * What one operation of the service is, as data: its handler, what invokes it (its trigger) and
 * what it may use (its access). shared/service/operations.ts lists every operation.
 */
import type { QueueName } from '#shared/service/queues';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Trigger =
  /**
   * `path` uses API Gateway's `{param}` syntax. Authentication is the handler's middleware, except
   * `operator` routes (/admin/v1, contract §19): in AWS the gateway's IAM authorization admits only
   * the principals the deployment grants, and their middleware refuses anyone else.
   */
  | { type: 'http'; method: HttpMethod; path: string; operator?: true }
  /** Catches every request no other route matched (API Gateway's `$default` route). */
  | { type: 'httpDefault' }
  | { type: 'schedule'; everyMinutes: number }
  /** SQS event source with partial batch responses. */
  | { type: 'queue'; queue: QueueName; batchSize: number }
  /** The jobs a queue gave up on (its dead-letter queue), to end their work in a final state. */
  | { type: 'deadLetters'; queue: QueueName; batchSize: number }
  /**
   * The table's stream (new and old images), in order per item, retried until it succeeds.
   * `countsMessages`: the one function that counts messages from it (shared/domain/outbox/counts.ts);
   * its failed batches are retried as received, never split, so each is counted once.
   * `batchingWindowSeconds`: how long a batch that is not full gathers records (Lambda's
   * MaximumBatchingWindowInSeconds; 0 when left out): fewer, fuller batches for some delay.
   * `reads`: the records it is given, the others filtered out before it is invoked
   * (shared/data/table/stream-filters.ts).
   */
  | { type: 'tableStream'; batchSize: number; reads: 'followUps' | 'changes'; countsMessages?: true; batchingWindowSeconds?: number }
  /** The table stream's on-failure queue: batches the stream functions gave up on. */
  | { type: 'streamFailures'; batchSize: number }
  /** Invoked by one-time EventBridge Scheduler schedules that other operations create. */
  | { type: 'scheduleTarget' }
  /** A rule on the service's event bus: events of these detail types (`*`: all) from the service. */
  | { type: 'busRule'; detailTypes: string[] };

export interface Access {
  table?: 'read' | 'readWrite';
  /**
   * Platform secrets (app secret, verify token, access tokens), and reading workspaces' own
   * secrets (their tokens from Embedded Signup, contract §19), which a workspace's token is looked up in first.
   */
  platformSecrets?: boolean;
  /** Creates and updates workspaces' own secrets (onboarding stores a workspace's token). */
  workspaceSecrets?: 'readWrite';
  /** Calls the WhatsApp Graph API (network egress, base URL setting). */
  graphApi?: boolean;
  /** Queues it sends jobs to (or changes the visibility of its own jobs on); each gets `{NAME}_QUEUE_URL`. */
  queues?: QueueName[];
  /** Creates and deletes the one-time schedules that invoke the `scheduleTarget` operation. */
  scheduler?: boolean;
  /** Publishes events to the service's event bus (`EVENT_BUS_NAME`). */
  bus?: boolean;
  /** Reads the table's stream (re-reading a failed batch's records). */
  tableStream?: boolean;
  /** The media bucket (`MEDIA_BUCKET`): `read` gets objects (and presigns links to copies), `readWrite` also stores them. */
  media?: 'read' | 'readWrite';
  /**
   * Erases workspaces: scans the table (the one operation that may), lists and deletes objects of
   * the media bucket, lists and deletes campaign schedules, and deletes workspaces' own secrets
   * (`{prefix}/workspaces/*` only).
   */
  erasure?: boolean;
}

export interface Operation {
  /** PascalCase; becomes the function's construct id. */
  name: string;
  /** Handler module under the project root, exporting `handler`. */
  handler: string;
  trigger: Trigger;
  access: Access;
  timeoutSeconds?: number;
  memoryMb?: number;
  /**
   * Files of npm packages the handler serves (`package/path`), read at run time rather than
   * bundled: the CDK stack copies each beside the function's bundle, the local stack reads it
   * from node_modules (shared/http/package-file.ts).
   */
  packageFiles?: string[];
}

/** A route of the HTTP API, authenticated by its handler. */
export const http = (method: HttpMethod, path: string): Trigger => ({ type: 'http', method, path });
