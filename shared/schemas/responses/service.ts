/** What the service's own public routes answer. */
import * as v from 'valibot';

export const health = v.object({ status: v.literal('ok') });

/** The OpenAPI document itself (served as is, not in the envelope). */
export const openApiDocument = v.objectWithRest(
  { openapi: v.literal('3.1.0'), info: v.objectWithRest({ title: v.string(), version: v.string() }, v.unknown()), paths: v.record(v.string(), v.unknown()) },
  v.unknown(),
);

/** The API reference page (HTML) and its renderer's script, for browsers. */
export const apiReferencePage = v.pipe(v.string(), v.description('An HTML page that renders this document with Redoc'));
export const apiReferenceScript = v.pipe(v.string(), v.description("Redoc's self-contained browser build"));

/** The answer to a platform webhook that was signed and queued. */
export const platformWebhookReceived = v.object({ received: v.literal(true) });

/** The platform's handshake, answered as plain text: the `hub.challenge` it sent. */
export const verificationChallenge = v.string();
