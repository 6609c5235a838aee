import type { HttpResult } from '#shared/http/responses';

/**
 * Whether a request's Accept-Encoding takes gzip (RFC 9110 §12.5.3): named, or covered by `*`,
 * with a weight above 0. No header means no compression: a client that names none may not decode it.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    const weight = parameters.map((parameter) => parameter.trim().match(/^q=([\d.]+)$/)).find((match) => match);
    if (coding) weights.set(coding, weight ? Number(weight[1]) : 1);
  }
  return (weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0) > 0;
}

/**
 * A large fixed text answer (the API document, the reference page's renderer), compressed once per
 * process, on the first request that takes gzip, and answered compressed to every client that
 * takes it: a third of the renderer's bytes, an eighth of the document's. API Gateway's HTTP
 * APIs compress nothing themselves; a function's base64 body with its Content-Encoding passes through.
 */
export function compressibleText(text: string, headers: Record<string, string>): (acceptEncoding: string | undefined) => Promise<HttpResult> {
  let gzipped: Promise<Buffer> | undefined;
  // Caches keep one copy per encoding.
  const varied = { ...headers, Vary: 'Accept-Encoding' };
  return async (acceptEncoding) => {
    if (!acceptsGzip(acceptEncoding)) return { status: 200, data: null, text, headers: varied };
    // zlib is loaded by the first request that needs it, not by every cold start.
    gzipped ??= import('node:zlib').then(({ gzipSync }) => gzipSync(text, { level: 9 }));
    return { status: 200, data: null, gzipped: await gzipped, headers: { ...varied, 'Content-Encoding': 'gzip' } };
  };
}
