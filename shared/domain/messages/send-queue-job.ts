/**
 * A job of the send queue: one message to send. Its own module, so what makes jobs (the outbox,
 * a send window's resume) need not load the send worker.
 */
export interface SendJob {
  workspace_id: string;
  message_id: string;
  /**
   * What the worker reads beside the message in its first call, when the job names them: the
   * campaign it renders from (its own, or the one it tests), the number it goes out from, the
   * recipient's opt-out, and a single message's template. A job without them (a message from
   * before several numbers, a job queued before they were named) reads them one by one.
   */
  campaign_id?: string;
  business_number_id?: string;
  /** A campaign message's recipient number, whose opt-out its worker reads (a MARKETING campaign's messages check it). */
  phone_number?: string;
  /** A single template message's template, which its worker renders from (a campaign message renders from its campaign's copy). */
  template?: { name: string; language: string };
}
