/** What the webhook subscription operations answer (contract §10). */
import * as v from 'valibot';
import { EVENT_TYPES } from '#shared/events/event';
import { count, recordId, timestamp } from '#shared/schemas/responses/common';

const signingSecret = () => v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{43}=$/), v.description('whsec_ + base64 of 32 random bytes'));

const subscriptionEntries = () => ({
  id: recordId(),
  url: v.string(),
  events: v.array(v.picklist(['*', ...EVENT_TYPES])),
  is_active: v.boolean(),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const webhook = v.object(subscriptionEntries());

/** A new subscription: the only answer besides a rotation that carries its secret. */
export const createdWebhook = v.object({ ...subscriptionEntries(), signing_secret: signingSecret() });

export const webhookSecretRotation = v.object({
  id: recordId(),
  signing_secret: signingSecret(),
  previous_secret_expires_at: v.pipe(timestamp(), v.description('Until then the previous secret signs alongside the new one')),
});

export const webhookTestResult = v.object({
  delivery_id: recordId(),
  success: v.boolean(),
  status_code: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Null when no answer came')),
  duration_ms: count(),
});

export const webhookDelivery = v.object({
  id: recordId(),
  event_id: recordId(),
  event_type: v.picklist(EVENT_TYPES),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  attempts: count(),
  last_status_code: v.nullable(v.pipe(v.number(), v.integer())),
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(timestamp()),
  created_at: timestamp(),
});
