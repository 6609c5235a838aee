import { version as redocVersion } from 'redoc/package.json';
import { publicHttpOperation } from '#shared/http/public-operation';

/**
 * No favicon request (an empty icon). Relative links, so the page works wherever the API is mounted. Redoc reads its options from the
 * element's attributes, so the page needs no inline script.
 */
const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>WhatsApp Business messaging API reference</title>
    <link rel="icon" href="data:,">
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <redoc spec-url="api/v1/openapi.json" expand-responses="200,201,202" json-sample-expand-level="3" hide-hostname="true" sort-required-props-first="true"></redoc>
    <script src="docs/redoc.standalone.js?v=${redocVersion}"></script>
  </body>
</html>
`;

/**
 * Everything the page loads comes from this origin: the renderer (GET /docs/redoc.standalone.js)
 * and the document. Redoc injects its styles and runs its search index in a blob worker. The one
 * thing it would fetch elsewhere, its credit logo from Redocly's CDN, is refused (it hides itself).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /docs: the API reference, the OpenAPI document rendered by Redoc in the browser. */
export const handler = publicHttpOperation(async () => ({
  status: 200,
  data: null,
  text: page,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'Cache-Control': 'no-cache' },
}));
