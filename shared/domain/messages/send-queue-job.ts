/**
 * A job of the send queue: one message to send. Its own module, so what makes jobs (the outbox,
 * a send window's resume) need not load the send worker.
 */
export interface SendJob {
  workspace_id: string;
  message_id: string;
}
