import { nowIso } from '#shared/time';
import type { JobOutcome } from '#shared/sqs-worker';
import { postWebhook, type DeliveryResult } from '#shared/subscribers/http-delivery';
import { signatureHeaders } from '#shared/subscribers/signing';
import { webhookPolicy } from '#shared/subscribers/url-safety';
import { afterAttempt } from '#shared/domain/subscriber-webhooks/retry-policy';
import { claimDeliveryAttempt, getDelivery, setDeliveryStatus, type Delivery } from '#shared/domain/subscriber-webhooks/deliveries';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { getSubscription, recordFailing, signingSecrets, type Subscription } from '#shared/domain/subscriber-webhooks/subscriptions';
import type { DeliveryJob } from '#shared/domain/subscriber-webhooks/dispatch';
import { countMetric } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';

/** Posts the delivery once, signed per Standard Webhooks with `webhook-id` = the event id (the same on every attempt), and counts the attempt's outcome. */
export async function post(subscription: Subscription, delivery: Delivery): Promise<DeliveryResult> {
  const event = JSON.parse(delivery.body) as { id: string };
  const headers = signatureHeaders({
    id: event.id,
    timestampSeconds: Math.floor(Date.now() / 1000),
    body: delivery.body,
    secrets: signingSecrets(subscription),
  });
  const result = await postWebhook(subscription.url, headers, delivery.body, webhookPolicy());
  countMetric(result.ok ? BusinessMetric.WebhookDeliveriesSucceeded : BusinessMetric.WebhookDeliveriesFailed);
  return result;
}

/** Records an attempt's answer on the delivery and the endpoint, and says when (if ever) to try again. */
export async function settle(subscription: Subscription, delivery: Delivery, attempt: number, result: DeliveryResult): Promise<JobOutcome> {
  const now = Date.now();
  const outcome = afterAttempt(attempt, result, subscription.failing_since ? Date.parse(subscription.failing_since) : null, now);
  const answer = { last_status_code: result.statusCode, last_error: result.ok ? null : (result.error ?? `HTTP ${result.statusCode}`) };
  switch (outcome.kind) {
    case 'succeeded':
      await setDeliveryStatus(delivery, { status: 'succeeded', ...answer, next_attempt_at: null });
      if (subscription.failing_since) await recordFailing(subscription.workspace_id, subscription.id, null, false);
      return { kind: 'done' };
    case 'retry':
      await setDeliveryStatus(delivery, { status: 'pending', ...answer, next_attempt_at: new Date(now + outcome.delaySeconds * 1000).toISOString() });
      if (!subscription.failing_since) await recordFailing(subscription.workspace_id, subscription.id, nowIso(), false);
      return { kind: 'retry', delaySeconds: outcome.delaySeconds };
    case 'failed':
      await setDeliveryStatus(delivery, { status: 'failed', ...answer, next_attempt_at: null });
      return { kind: 'done' };
    case 'deactivate':
      await setDeliveryStatus(delivery, { status: 'failed', ...answer, next_attempt_at: null });
      await recordFailing(subscription.workspace_id, subscription.id, subscription.failing_since ?? nowIso(), true);
      return { kind: 'done' };
  }
}

/**
 * One delivery job: a due, pending delivery to an active endpoint is attempted once (the attempt
 * counter is taken conditionally, so a duplicated job does not post twice at once), then settled.
 */
export async function processDeliveryJob(job: DeliveryJob): Promise<JobOutcome> {
  const delivery = await getDelivery(job.workspace_id, job.webhook_id, job.delivery_id);
  if (!delivery || delivery.status !== 'pending') return { kind: 'done' };
  // A workspace being erased gets no more attempts: its deliveries are going.
  if (!(await cachedWorkspace(job.workspace_id))) return { kind: 'done' };
  // Not due yet, or another worker's attempt is in progress: come back then.
  const wait =
    Math.max(delivery.next_attempt_at ? Date.parse(delivery.next_attempt_at) : 0, delivery.lease_until ? Date.parse(delivery.lease_until) : 0) - Date.now();
  if (wait > 1000) return { kind: 'retry', delaySeconds: Math.ceil(wait / 1000) };
  const subscription = await getSubscription(job.workspace_id, job.webhook_id);
  if (!subscription || !subscription.is_active) {
    await setDeliveryStatus(delivery, {
      status: 'failed',
      last_status_code: delivery.last_status_code,
      last_error: 'The endpoint is inactive or deleted',
      next_attempt_at: null,
    });
    return { kind: 'done' };
  }
  if (!(await claimDeliveryAttempt(delivery))) return { kind: 'done' };
  return settle(subscription, delivery, delivery.attempts + 1, await post(subscription, delivery));
}
