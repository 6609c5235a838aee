/** What the service's own public routes answer. */
import * as v from 'valibot';

export const health = v.object({ status: v.literal('ok') });

/** The OpenAPI document itself (served as is, not in the envelope). */
export const openApiDocument = v.objectWithRest(
  { openapi: v.literal('3.1.0'), info: v.objectWithRest({ title: v.string(), version: v.string() }, v.unknown()), paths: v.record(v.string(), v.unknown()) },
  v.unknown(),
);

/** The answer to a platform webhook that was signed and queued. */
export const platformWebhookReceived = v.object({ received: v.literal(true) });

/** The platform's handshake, answered as plain text: the `hub.challenge` it sent. */
export const verificationChallenge = v.string();
