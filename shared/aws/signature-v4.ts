import { createHmac, hash } from 'node:crypto';

/** The function's credentials: its role's, which Lambda puts in the environment, or the local stack's. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** A request as the service's clients send it: the path's segments escaped as sent, the query not yet escaped. */
export interface SignableRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  payload: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

/** Headers the SDK never signs (a proxy or the runtime may change them on the way): @smithy/signature-v4's list. */
const UNSIGNABLE = new Set([
  'authorization',
  'cache-control',
  'connection',
  'expect',
  'from',
  'keep-alive',
  'max-forwards',
  'pragma',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'x-amzn-trace-id',
]);
const signable = (name: string) => !UNSIGNABLE.has(name) && !name.startsWith('proxy-') && !name.startsWith('sec-');

const sha256Hex = (text: string) => hash('sha256', text, 'hex');

/** RFC 3986's unreserved characters left as they are, everything else percent-encoded, as Signature V4 escapes a path and a query (and as they are sent). */
export const escapeUri = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The path as every service but S3 signs it: `.` and `..` segments resolved, empty ones dropped,
 * then escaped once more (a segment sent as `a%20b` is signed as `a%2520b`).
 */
function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const normalised = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return escapeUri(normalised).replace(/%2F/g, '/');
}

/** A header's value as signed: line breaks and runs of spaces and tabs made one space, an edge's space dropped (tested first, as the values sent seldom need it). */
const folded = (value: string) =>
  /[\r\n\t]| {2}|^ | $/.test(value)
    ? value
        .replace(/[\r\n]/g, ' ')
        .replace(/[ \t]+/g, ' ')
        .replace(/^ | $/g, '')
    : value;

/** The query's parameters escaped and sorted by their escaped names. */
const canonicalQuery = (query: Record<string, string>) =>
  Object.entries(query)
    .map(([name, value]) => [escapeUri(name), escapeUri(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

/**
 * Signature Version 4 in the request's headers, for the JSON and REST-JSON services the functions
 * call (DynamoDB and its streams, SQS, EventBridge, the Scheduler, Secrets Manager): what
 * @smithy/signature-v4 signs for them, header for header (test/aws/signature-v4.test.ts holds
 * the two together), done synchronously with node:crypto: under half the SDK's signer's
 * CPU a call (bench/signing.ts). The signing key is derived once a day.
 */
export class RequestSigner {
  private signingKey: { day: string; key: Buffer } | undefined;
  /** A copy: the key derived from the secret is kept a day, so the credentials must not change under it. */
  private readonly credentials: Readonly<AwsCredentials>;

  constructor(
    private readonly service: string,
    private readonly region: string,
    credentials: AwsCredentials,
  ) {
    this.credentials = Object.freeze({ ...credentials });
  }

  /** The request's headers (names in lower case) with the date, the session token, the payload's hash and the authorization added; the request itself is left as it was. */
  sign(request: SignableRequest, now: Date = new Date()): Record<string, string> {
    const { accessKeyId, sessionToken } = this.credentials;
    const longDate = `${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
    const day = longDate.slice(0, 8);
    const scope = `${day}/${this.region}/${this.service}/aws4_request`;
    const payloadHash = sha256Hex(request.payload);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    headers['x-amz-date'] = longDate;
    if (sessionToken) headers['x-amz-security-token'] = sessionToken;
    headers['x-amz-content-sha256'] = payloadHash;
    const names = Object.keys(headers).filter(signable).sort();
    const signedHeaders = names.join(';');
    const canonicalHeaders = names.map((name) => `${name}:${folded(headers[name])}\n`).join('');
    const canonicalRequest = `${request.method}\n${canonicalPath(request.path)}\n${canonicalQuery(request.query)}\n${canonicalHeaders}\n${signedHeaders}\n${payloadHash}`;
    const stringToSign = `${ALGORITHM}\n${longDate}\n${scope}\n${sha256Hex(canonicalRequest)}`;
    const signature = createHmac('sha256', this.keyFor(day)).update(stringToSign).digest('hex');
    headers.authorization = `${ALGORITHM} Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return headers;
  }

  private keyFor(day: string): Buffer {
    if (this.signingKey?.day !== day) {
      const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
      const key = hmac(hmac(hmac(hmac(`AWS4${this.credentials.secretAccessKey}`, day), this.region), this.service), 'aws4_request');
      this.signingKey = { day, key };
    }
    return this.signingKey.key;
  }
}
