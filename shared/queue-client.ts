import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { QueueName } from '#shared/service/queues';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';

const sqs = perEndpoint(
  () => env.sqsEndpoint,
  (endpoint) => withoutSdkLogger(new SQSClient(serviceClientConfig(endpoint))),
);

/** The queue URL a function was given (`SEND_QUEUE_URL`, …), by name. */
export const queueUrl = (name: QueueName): string => env.queueUrl(name);

/**
 * A job's JSON with characters outside the Basic Multilingual Plane (emoji: a customer's reaction,
 * a caption) written as `\uXXXX` escapes. Same JSON once parsed; the SQS emulator refuses the raw
 * surrogate pairs that SQS itself accepts, and escaped the body means the same in both.
 */
const jobBody = (job: unknown): string => JSON.stringify(job).replace(/[\uD800-\uDFFF]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);

/** Enqueues JSON jobs in batches of ten; throws if any entry was refused, so the caller's own retry covers it. */
export async function enqueue(url: string, jobs: unknown[]): Promise<void> {
  for (let start = 0; start < jobs.length; start += 10) {
    const entries = jobs.slice(start, start + 10).map((job, i) => ({ Id: String(i), MessageBody: jobBody(job) }));
    const { Failed } = await sqs().send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    if (Failed?.length) throw new Error(`SQS refused ${Failed.length} jobs: ${Failed[0].Message}`);
  }
}

/**
 * SQS allows a job's visibility to reach 12 hours after it was first received; staying below
 * leaves room for the time it has already spent. Longer waits come back early and wait again.
 */
const MAX_VISIBILITY_SECONDS = 11 * 3600;

/** Makes a received job reappear after `seconds` (back-off without sleeping in the function). */
export async function retryAfter(url: string, receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: url,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))),
    }),
  );
}
