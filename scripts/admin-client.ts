/**
 * The admin command's line to the operator's API (/admin/v1, contract §19): on the local stack
 * with the operator key `npm start` wrote to .local/credentials.json; against a deployment with
 * a SigV4 signature of the caller's AWS credentials (the SDK's default chain), which API Gateway
 * checks against the operator grants (README, "Deploying").
 */
import { SQSClient } from '@aws-sdk/client-sqs';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@smithy/core/checksum';
import { readJson, type Credentials } from '#local/stack-file';

export interface AdminReply {
  status: number;
  body: { success: boolean; data?: unknown; error?: { code: string; message: string; details?: unknown[] } };
}

export type AdminCall = (method: string, path: string, body?: unknown) => Promise<AdminReply>;

async function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<AdminReply> {
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as AdminReply['body'] };
  } catch {
    // API Gateway's own refusals (an unsigned or ungranted request) are `{"message": …}` or plain text.
    return { status: response.status, body: { success: false, error: { code: `http_${response.status}`, message: text.slice(0, 200) } } };
  }
}

const jsonHeaders = (body: string | undefined): Record<string, string> => (body === undefined ? {} : { 'content-type': 'application/json' });

/** The running local stack, with its operator key. */
export function localAdmin(): { call: AdminCall; credentials: Credentials } {
  const credentials = readJson<Credentials>('credentials.json');
  if (!credentials?.operator_key) throw new Error('no local stack found: start it with `npm start`, or pass --api-url for a deployed stack');
  const call: AdminCall = (method, path, body) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return send(new URL(path, credentials.base_url), method, { ...jsonHeaders(text), authorization: `Bearer ${credentials.operator_key}` }, text);
  };
  return { call, credentials };
}

/** The region of an API Gateway URL (`https://{api}.execute-api.{region}.amazonaws.com/`). */
const regionOf = (url: URL) => /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com$/.exec(url.hostname)?.[1];

/** A deployed stack at `apiUrl` (its ApiUrl output), each request signed for `execute-api`. */
export function deployedAdmin(apiUrl: string, region?: string): AdminCall {
  const base = new URL(apiUrl);
  const signingRegion = region ?? process.env.AWS_REGION ?? regionOf(base);
  if (!signingRegion) throw new Error('--region is required when the API URL is not an execute-api URL');
  // The SDK's default credential chain (environment, profile, SSO, instance role…), as any AWS CLI call finds it.
  const credentials = new SQSClient({ region: signingRegion }).config.credentials;
  const signer = new SignatureV4({ service: 'execute-api', region: signingRegion, credentials, sha256: Sha256 });
  return async (method, path, body) => {
    const url = new URL(path.replace(/^\//, ''), base.href.endsWith('/') ? base : `${base.href}/`);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { host: url.host, ...jsonHeaders(text) },
      body: text,
    });
    return send(url, method, signed.headers, text);
  };
}
