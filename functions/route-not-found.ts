import { errors } from '#shared/http/errors';
import { publicHttpOperation } from '#shared/http/operation';

export const handler = publicHttpOperation(async (event) => {
  throw errors.routeNotFound(event.requestContext.http.method, event.rawPath);
});
