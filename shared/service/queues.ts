/**
 * The work queues, once, as data: the CDK stack creates each with its dead-letter queue, the
 * local stack creates the same on the SQS emulator.
 */
export const queues = {
  /**
   * Send jobs: one message each. Retries are paced by the worker (visibility back-off), and a job
   * waiting for a send slot comes back every few seconds, so receives are not attempts: 900 lets
   * a message wait in line for hours behind a large campaign, while a job that throws on every
   * receive (90 s apart) is dead-lettered within a day (22.5 h), which fails its message.
   */
  send: { visibilityTimeoutSeconds: 90, maxReceiveCount: 900 },
  /** Platform webhooks, queued raw by POST /webhooks/whatsapp. */
  inbound: { visibilityTimeoutSeconds: 60, maxReceiveCount: 8 },
  /** Inbound media copies: one message's media per job, retried with the queue's redelivery, then given up (docs/conversations.md). */
  media: { visibilityTimeoutSeconds: 120, maxReceiveCount: 5 },
  /** Campaign fan-out: one audience chunk per job (or a large segment's resolution, up to 300 s); each chunk enqueues the next. */
  fanout: { visibilityTimeoutSeconds: 360, maxReceiveCount: 8 },
  /** Webhook deliveries: one attempt per receive; retries wait on the job's visibility (up to 12 h). */
  webhook: { visibilityTimeoutSeconds: 60, maxReceiveCount: 20 },
  /**
   * Workspace erasures (contract §19): each job works up to a minute, then queues the next; one
   * also comes back after the grace between the two passes. A job that keeps failing is
   * dead-lettered and the workspace stays `deleting`: the operator's DELETE again resumes it.
   */
  erasure: { visibilityTimeoutSeconds: 360, maxReceiveCount: 10 },
} as const;

export type QueueName = keyof typeof queues;
