import { httpErrors } from '#shared/http/errors';
import { publicHttpOperation } from '#shared/http/public-operation';

export const handler = publicHttpOperation(async (event) => {
  throw httpErrors.routeNotFound(event.requestContext.http.method, event.rawPath);
});
