import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsAccess, CONNECTION_TIMEOUT_MS, perEndpoint, requestHandler, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';
import { MEDIA_LINK_SECONDS } from '#shared/media/bucket-settings';
import { MEDIA_DISPOSITION } from '#shared/media/served-type';

/**
 * The media bucket's calls (put, get, a presigned link; list and delete for an erasure) through the
 * SDK's S3 client. Locally the S3 emulator of fauxqs, addressed by path (no bucket subdomains on
 * localhost). Each call names the bucket's owner (contract §22): a bucket of the same name in
 * another account refuses it (403) instead of receiving or serving objects.
 */
export const mediaBucket = () => env.mediaBucket;

/**
 * The SDK's standard retries (3 attempts: throttling, 5xx, dropped connections). An attempt may
 * carry a media copy of up to 100 MB, so it has no time-out of its own, only one for connecting and
 * one for a connection that stays idle. Checksums only where S3 requires them, as before the SDK:
 * a put is signed with its payload's SHA-256, and a link is not given a checksum mode to ask for.
 */
const s3 = perEndpoint(
  () => env.s3Endpoint,
  (endpoint) =>
    withoutSdkLogger(
      new S3Client({
        ...awsAccess(endpoint),
        forcePathStyle: endpoint !== undefined,
        maxAttempts: 3,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: requestHandler({
          connectionTimeout: endpoint ? CONNECTION_TIMEOUT_MS.local : CONNECTION_TIMEOUT_MS.aws,
          socketTimeout: endpoint ? 10_000 : 5_000,
        }),
      }),
    ),
);

/** What every call says of the bucket: its name and its owner. */
const bucket = () => ({ Bucket: mediaBucket(), ExpectedBucketOwner: env.mediaBucketOwner });

/** Stores one object: a media copy (served as a download: `disposition`), or a platform webhook too large for a queue message. */
export async function putObject(key: string, bytes: Uint8Array, contentType: string, disposition?: string): Promise<void> {
  await s3().send(new PutObjectCommand({ ...bucket(), Key: key, Body: bytes, ContentType: contentType, ContentDisposition: disposition }));
}

/** An object's bytes as text (a stored platform webhook). */
export async function getText(key: string): Promise<string> {
  const { Body } = await s3().send(new GetObjectCommand({ ...bucket(), Key: key }));
  return Body!.transformToString('utf8');
}

/** Up to 1,000 keys of objects under `prefix` (one page of ListObjectsV2: the first, so a caller that deletes them reads the next ones next). */
export async function listKeys(prefix: string): Promise<string[]> {
  const { Contents } = await s3().send(new ListObjectsV2Command({ ...bucket(), Prefix: prefix, MaxKeys: 1000 }));
  return (Contents ?? []).flatMap(({ Key }) => (Key === undefined ? [] : [Key]));
}

/** Deletes one object; one already gone is no error (S3 answers 204 either way). */
export async function deleteObject(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ ...bucket(), Key: key }));
}

/**
 * A link to a stored media copy, valid MEDIA_LINK_SECONDS, signed anew on each call. It asks S3 to
 * answer it as a download (`response-content-disposition`), copies stored before they carried
 * their own disposition included. The link names no owner: it is followed by a customer's client,
 * which sends no headers of ours, and it was signed for this bucket only.
 */
export function mediaLink(key: string): Promise<string> {
  return getSignedUrl(s3(), new GetObjectCommand({ Bucket: mediaBucket(), Key: key, ResponseContentDisposition: MEDIA_DISPOSITION }), {
    expiresIn: MEDIA_LINK_SECONDS,
  });
}
