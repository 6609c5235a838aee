import type { HttpResult } from '#shared/http/responses';

/** A member's weight (RFC 9110 §12.4.2): 0 to 1, at most three decimals. */
const WEIGHT = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

/**
 * Whether a request's Accept-Encoding takes gzip (RFC 9110 §12.5.3): named, or covered by `*`,
 * with a weight above 0; a member whose weight is malformed is left out. No header means no
 * compression: a client that names none may not decode it.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const member of header.toLowerCase().split(',')) {
    const [coding, ...parameters] = member.split(';').map((part) => part.trim());
    const weight = parameters.find((parameter) => parameter.startsWith('q='));
    if (weight !== undefined && !WEIGHT.test(weight)) continue;
    if (coding) weights.set(coding, weight ? Number(weight.slice(2)) : 1);
  }
  return (weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0) > 0;
}

/**
 * A large fixed text answer (the API document, the reference page's renderer), compressed once per
 * process, on the first request that takes gzip, and answered compressed to every client that
 * takes it and uncompressed to any other: a third of the renderer's bytes, an eighth of the
 * document's. API Gateway's HTTP APIs compress nothing themselves; a function's base64 body with
 * its Content-Encoding passes through.
 */
export function compressibleText(text: string, headers: Record<string, string>): (acceptEncoding: string | undefined) => Promise<HttpResult> {
  let gzipped: Promise<string> | undefined;
  // Caches keep one copy per encoding.
  const varied = { ...headers, Vary: 'Accept-Encoding' };
  const compress = async () => {
    // zlib is loaded by the first request that needs it, not by every cold start. Level 6: level 9 saves 0.3% of the renderer for half again the time.
    const { gzipSync } = await import('node:zlib');
    return gzipSync(text, { level: 6 }).toString('base64');
  };
  return async (acceptEncoding) => {
    if (!acceptsGzip(acceptEncoding)) return { status: 200, data: null, text, headers: varied };
    gzipped ??= compress().catch((error: unknown) => {
      gzipped = undefined;
      throw error;
    });
    return { status: 200, data: null, gzippedBase64: await gzipped, headers: { ...varied, 'Content-Encoding': 'gzip' } };
  };
}
