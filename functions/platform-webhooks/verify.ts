import { httpErrors } from '#shared/http/errors';
import { publicHttpOperation } from '#shared/http/public-operation';
import { plainText } from '#shared/http/responses';
import { platformSecrets } from '#shared/platform/secrets';
import { sameSecret } from '#shared/same-secret';

/** GET /webhooks/whatsapp: the platform's subscription handshake (contract §11); the verify token compared in constant time (§22). */
export const handler = publicHttpOperation(async (event) => {
  const query = event.queryStringParameters ?? {};
  const { verify_token } = await platformSecrets();
  if (query['hub.mode'] !== 'subscribe' || !verify_token || !sameSecret(query['hub.verify_token'], verify_token) || !query['hub.challenge']) {
    throw httpErrors.forbidden('Webhook verification failed');
  }
  return plainText(query['hub.challenge']);
});
