import { sameSecret } from '#shared/same-secret';
import { hashSecret } from '#shared/domain/api-keys';
import { env } from '#shared/config';
import { httpErrors } from '#shared/http/errors';
import type { ApiMiddleware } from '#shared/http/context';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** The IAM identity API Gateway verified the request's SigV4 signature for (routes with IAM authorization). */
interface IamAuthorized {
  authorizer?: { iam?: { userArn?: string } };
}

function isLocalOperatorKey(secret: string | undefined): boolean {
  return Boolean(secret) && sameSecret(hashSecret(secret!), env.localOperatorKeySha256);
}

/**
 * The operator, never a workspace (contract §19). In AWS the route's IAM authorization has checked
 * the signature and the caller's grant before the function runs, and the event names the identity;
 * locally the operator key `npm start` printed. Anything else (a workspace key, an old operator
 * key, nothing) is 401, so even a route deployed without its authorizer admits no one.
 */
export const operatorAuth = (): ApiMiddleware => ({
  before: ({ event }) => {
    const iamIdentity = (event.requestContext as IamAuthorized).authorizer?.iam?.userArn;
    if (iamIdentity) return;
    if (!isLocalOperatorKey(BEARER.exec(event.headers.authorization ?? '')?.[1]))
      throw httpErrors.unauthorized('The operator API takes the operator key locally, or a SigV4 signature of a granted principal in AWS');
  },
});
