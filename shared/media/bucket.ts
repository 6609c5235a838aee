import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '#shared/signing/sha256';
import { env } from '#shared/config';
import { MEDIA_LINK_SECONDS } from '#shared/media/bucket-settings';
import { MEDIA_DISPOSITION } from '#shared/media/served-type';

/**
 * The media bucket's calls (put, get, a presigned link; list and delete for an erasure), signed with the SDK's own
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

/** The bucket's own URL (its listing): path-style on the emulator, virtual-hosted in AWS. */
function bucketUrl(): URL {
  return env.s3Endpoint ? new URL(`${env.s3Endpoint}/${mediaBucket()}`) : new URL(`https://${mediaBucket()}.s3.${env.awsRegion}.amazonaws.com/`);
}

/** The request the signer takes for `method` on the URL (its query signed too). */
function request(method: string, url: URL, headers: Record<string, string>, body?: Uint8Array) {
  return {
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: { host: url.host, ...headers },
    body,
  };
}

/**
 * One signed call, retried on a server error or a dropped connection like the SDK's standard
 * retries; any other answer but 2xx throws. Each names the bucket's owner (contract §22): a bucket
 * of the same name in another account refuses it (403) instead of receiving or serving objects.
 */
async function call(method: 'PUT' | 'GET' | 'DELETE', key: string | URL, body?: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  const url = typeof key === 'string' ? objectUrl(key) : key;
  const payloadHash = createHash('sha256')
    .update(body ?? new Uint8Array())
    .digest('hex');
  for (let attempt = 1; ; attempt++) {
    const signed = await signer().sign(
      request(method, url, { 'x-amz-content-sha256': payloadHash, 'x-amz-expected-bucket-owner': env.mediaBucketOwner, ...headers }, body),
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

/** Stores one object: a media copy (served as a download: `disposition`), or a platform webhook too large for a queue message. */
export async function putObject(key: string, bytes: Uint8Array, contentType: string, disposition?: string): Promise<void> {
  await call('PUT', key, bytes, { 'content-type': contentType, ...(disposition && { 'content-disposition': disposition }) });
}

/** An object's bytes as text (a stored platform webhook). */
export async function getText(key: string): Promise<string> {
  return (await call('GET', key)).text();
}

/** Up to 1,000 keys of objects under `prefix` (one page of ListObjectsV2: the first, so a caller that deletes them reads the next ones next). */
export async function listKeys(prefix: string): Promise<string[]> {
  const url = bucketUrl();
  url.search = new URLSearchParams({ 'list-type': '2', prefix, 'max-keys': '1000' }).toString();
  const xml = await (await call('GET', url)).text();
  return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map(([, key]) => unescapeXml(key));
}

const XML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
const unescapeXml = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (entity) => XML_ENTITIES[entity]);

/** Deletes one object; one already gone is no error (S3 answers 204 either way). */
export async function deleteObject(key: string): Promise<void> {
  await call('DELETE', key);
}

/**
 * A link to a stored media copy, valid MEDIA_LINK_SECONDS, signed anew on each call. It asks S3 to
 * answer it as a download (`response-content-disposition`), copies stored before they carried
 * their own disposition included.
 */
export async function mediaLink(key: string): Promise<string> {
  const url = objectUrl(key);
  url.searchParams.set('response-content-disposition', MEDIA_DISPOSITION);
  const signed = await signer().presign(request('GET', url, { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' }), { expiresIn: MEDIA_LINK_SECONDS });
  const query = new URLSearchParams(signed.query as Record<string, string>);
  return `${url.origin}${url.pathname}?${query}`;
}
