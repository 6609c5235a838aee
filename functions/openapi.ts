import document from '../docs/openapi.json';
import { publicHttpOperation } from '#shared/http/public-operation';
import { unenvelopedJson } from '#shared/http/responses';

const body = JSON.stringify(document);

/**
 * GET /api/v1/openapi.json: the API document as `npm run openapi` wrote it (a test keeps the file
 * equal to what the code generates), so the function loads no schema or generator. Served as is,
 * not in the envelope, for OpenAPI tools to load.
 */
export const handler = publicHttpOperation(async () => unenvelopedJson(body));
