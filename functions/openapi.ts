import document from '../docs/openapi.json';
import { publicHttpOperation } from '#shared/http/public-operation';
import { plainText } from '#shared/http/responses';

const body = JSON.stringify(document);

/**
 * GET /api/v1/openapi.json: the API document as `npm run openapi` wrote it (a test keeps the file
 * equal to what the code generates), so the function loads no schema or generator. Served as is,
 * not in the envelope, for OpenAPI tools to load: the public stack's plain-text answer, as JSON.
 */
const served = publicHttpOperation(async () => plainText(body));

export const handler = async (...request: Parameters<typeof served>) => {
  const response = await served(...request);
  return { ...response, headers: { ...response.headers, 'Content-Type': 'application/json' } };
};
