import { HttpError, httpErrors } from '#shared/http/errors';
import { publicHttpOperation } from '#shared/http/public-operation';
import { ok } from '#shared/http/responses';
import { platformSecrets } from '#shared/platform/secrets';
import { validPlatformSignature } from '#shared/platform/signature';
import { queuePlatformWebhook } from '#shared/platform/webhook-queue';

/**
 * POST /webhooks/whatsapp: checks the signature over the raw body, queues the payload (a large
 * one by reference) and answers at once; the inbound worker does the rest. Unsigned or forged: 401, nothing queued.
 */
export const handler = publicHttpOperation(async (event) => {
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  const { app_secret } = await platformSecrets();
  if (!validPlatformSignature(raw, event.headers['x-hub-signature-256'], app_secret)) {
    throw new HttpError('unauthorized', 'Missing or invalid X-Hub-Signature-256');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    throw httpErrors.invalidJson();
  }
  await queuePlatformWebhook(raw, payload);
  return ok({ received: true });
});
