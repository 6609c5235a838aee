import { publicHttpOperation } from '#shared/http/public-operation';
import { REDOC_SCRIPT } from '#shared/service/operations';
import { readPackageFile } from '#shared/http/package-file';

const script = readPackageFile(REDOC_SCRIPT);

/**
 * GET /docs/redoc.standalone.js: the renderer of the API reference page, from the deployment
 * itself (no CDN). The page asks for it with the renderer's version in the query, so browsers
 * may keep it as long as they like.
 */
export const handler = publicHttpOperation(async () => ({
  status: 200,
  data: null,
  text: script,
  headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' },
}));
