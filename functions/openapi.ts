import document from '../docs/openapi.json';
import { compressibleText } from '#shared/http/compressed-text';
import { publicHttpOperation } from '#shared/http/public-operation';

const answer = compressibleText(JSON.stringify(document), { 'Content-Type': 'application/json' });

/**
 * GET /api/v1/openapi.json: the API document as `npm run openapi` wrote it (a test keeps the file
 * equal to what the code generates), so the function loads no schema or generator. Served as is,
 * not in the envelope, for OpenAPI tools to load; gzip-compressed for the clients that take it.
 */
export const handler = publicHttpOperation(async (event) => answer(event.headers['accept-encoding']));
