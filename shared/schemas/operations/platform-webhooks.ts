/**
 * The platform's webhooks (contract §11): Meta calls these, not API clients. Their handlers read
 * the request themselves (the signature is over the raw body), so the schemas here only document
 * what they read.
 */
import * as v from 'valibot';
import { droppable } from '#shared/schemas/common';
import type { PublicOperation } from '#shared/schemas/operations/description';

const verificationQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    'hub.mode': v.literal('subscribe'),
    'hub.verify_token': v.pipe(v.string(), v.description('The verify token of the platform secret')),
    'hub.challenge': v.pipe(v.string(), v.description('Answered back as plain text')),
  }),
);

/** A WhatsApp Business Account webhook as Meta sends it (docs/platform-payloads.md); routed by `metadata.phone_number_id`. */
const platformPayload = /* @__PURE__ */ droppable(() => v.object({ object: v.string(), entry: v.array(v.unknown()) }));

export const VerifyPlatformWebhook = {
  tag: 'Platform webhooks',
  summary: "The platform's subscription handshake",
  description: 'Called by Meta when the webhook URL is registered: the challenge comes back when the verify token matches.',
  auth: 'none',
  request: { query: verificationQuery },
  success: [{ status: 200, mediaType: 'text/plain', body: 'verificationChallenge' }],
  errors: ['forbidden'],
} satisfies PublicOperation;

export const ReceivePlatformWebhook = {
  tag: 'Platform webhooks',
  summary: "The platform's status reports, customer messages and template changes",
  description:
    'Called by Meta. Signed with `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the app secret); unsigned or forged: 401 and nothing processed. Queued at once and processed asynchronously; repeated deliveries are harmless.',
  auth: 'platformSignature',
  request: { body: platformPayload },
  success: [{ status: 200, data: 'platformWebhookReceived' }],
  errors: ['unauthorized', 'invalid_json'],
} satisfies PublicOperation;
