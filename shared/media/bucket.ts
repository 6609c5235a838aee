import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '#shared/signing/sha256';
import { env } from '#shared/config';
import { MEDIA_LINK_SECONDS } from '#shared/media/bucket-settings';

/**
 * The media bucket's three calls (put, get, a presigned link), signed with the SDK's own
 * Signature V4 signer and sent with fetch: the S3 client would add about 200 KB to each bundle
 * that uses the bucket and a third to its cold start (docs/performance.md). Locally the S3
 * emulator of fauxqs, addressed by path (no bucket subdomains on localhost).
 */
export const mediaBucket = () => env.mediaBucket;

const ATTEMPTS = 3;

/** The function's role credentials, which Lambda puts in the environment; locally, the emulator's. */
function credentials() {
  if (env.s3Endpoint) return { accessKeyId: 'local', secretAccessKey: 'local' };
  return env.awsCredentials;
}

// S3 signs the path as sent (no second encoding), and its payload hash is a header.
const signer = () =>
  new SignatureV4({ service: 's3', region: env.awsRegion, credentials: credentials(), sha256: Sha256, uriEscapePath: false, applyChecksum: false });

/** The object's URL: path-style on the emulator, virtual-hosted in AWS. */
function objectUrl(key: string): URL {
  const path = key.split('/').map(encodeURIComponent).join('/');
  return env.s3Endpoint ? new URL(`${env.s3Endpoint}/${mediaBucket()}/${path}`) : new URL(`https://${mediaBucket()}.s3.${env.awsRegion}.amazonaws.com/${path}`);
}

/** The request the signer takes for `method` on the object's URL. */
function request(method: string, url: URL, headers: Record<string, string>, body?: Uint8Array) {
  return {
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers: { host: url.host, ...headers },
    body,
  };
}

/** One signed call, retried on a server error or a dropped connection like the SDK's standard retries; any other answer but 200 throws. */
async function call(method: 'PUT' | 'GET', key: string, body?: Uint8Array, contentType?: string): Promise<Response> {
  const url = objectUrl(key);
  const payloadHash = createHash('sha256')
    .update(body ?? new Uint8Array())
    .digest('hex');
  for (let attempt = 1; ; attempt++) {
    const signed = await signer().sign(
      request(method, url, { 'x-amz-content-sha256': payloadHash, ...(contentType && { 'content-type': contentType }) }, body),
    );
    const response = await fetch(url, { method, headers: signed.headers as Record<string, string>, body }).catch((error: Error) => error);
    if (response instanceof Response && response.ok) return response;
    const retryable = !(response instanceof Response) || response.status >= 500;
    if (!retryable || attempt === ATTEMPTS) {
      throw new Error(`S3 ${method} ${key} failed: ${response instanceof Response ? `${response.status} ${await response.text()}` : response.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
  }
}

/** Stores one object: a media copy, or a platform webhook too large for a queue message. */
export async function putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await call('PUT', key, bytes, contentType);
}

/** An object's bytes as text (a stored platform webhook). */
export async function getText(key: string): Promise<string> {
  return (await call('GET', key)).text();
}

/** A link to a stored media copy, valid MEDIA_LINK_SECONDS, signed anew on each call. */
export async function mediaLink(key: string): Promise<string> {
  const url = objectUrl(key);
  const signed = await signer().presign(request('GET', url, { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }), { expiresIn: MEDIA_LINK_SECONDS });
  const query = new URLSearchParams(signed.query as Record<string, string>);
  return `${url.origin}${url.pathname}?${query}`;
}
