import { SignatureV4 } from '@smithy/signature-v4';
import { RequestSigner, type SignableRequest } from '#shared/aws/signature-v4';
import { Sha256 } from '#shared/signing/sha256';
import { median, type Figure } from './harness';

const SIGNATURES = 20_000;
const ROUNDS = 5;

/** A `PutItem` of a message-sized item (30 attributes, about 1.2 KB), as the table client sends it. */
const putItem: SignableRequest = {
  method: 'POST',
  path: '/',
  query: {},
  headers: { host: '127.0.0.1:8000', 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' },
  payload: JSON.stringify({ TableName: 'messaging', Item: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`attr${i}`, { S: 'x'.repeat(20) }])) }),
};

/** CPU time of this process per call of `sign`, in µs. */
async function cpuPerSignature(sign: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < SIGNATURES; i++) await sign();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / SIGNATURES;
}

/**
 * The CPU each AWS call's signature costs a function: the service's signer (shared/aws/signature-v4.ts)
 * against the AWS SDK's (@smithy/signature-v4), which it replaced, on the same request, in
 * alternating rounds; the first round of each warms the JIT and is left out.
 */
export async function benchSigning(): Promise<Figure[]> {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };
  const ours = new RequestSigner('dynamodb', 'eu-west-1', credentials);
  const sdk = new SignatureV4({ service: 'dynamodb', region: 'eu-west-1', credentials, sha256: Sha256 });
  const { method, path, query, headers, payload } = putItem;
  const signBySdk = () => sdk.sign({ method, protocol: 'http:', hostname: '127.0.0.1', port: 8000, path, query, headers: { ...headers }, body: payload });
  const oursUs: number[] = [];
  const sdkUs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sdkUs.push(await cpuPerSignature(signBySdk));
    oursUs.push(await cpuPerSignature(() => ours.sign(putItem)));
  }
  return [
    {
      name: `CPU per signature of a ${putItem.payload.length}-byte PutItem (median of ${ROUNDS - 1} rounds of ${SIGNATURES})`,
      value: median(oursUs.slice(1)),
      unit: 'µs',
      baseline: { name: "the AWS SDK's signer (@smithy/signature-v4), same request", value: median(sdkUs.slice(1)) },
    },
  ];
}
