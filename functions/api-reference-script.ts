import { compressibleText } from '#shared/http/compressed-text';
import { publicHttpOperation } from '#shared/http/public-operation';
import { REDOC_SCRIPT } from '#shared/service/operations/api';
import { readPackageFile } from '#shared/http/package-file';

const answer = compressibleText(readPackageFile(REDOC_SCRIPT), {
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': 'public, max-age=31536000, immutable',
});

/**
 * GET /docs/redoc.standalone.js: the renderer of the API reference page, from the deployment
 * itself (no CDN), gzip-compressed for the browsers that take it (1.1 MB, 0.33 MB compressed).
 * The page asks for it with the renderer's version in the query, so browsers may keep it as long as they like.
 */
export const handler = publicHttpOperation(async (event) => answer(event.headers['accept-encoding']));
