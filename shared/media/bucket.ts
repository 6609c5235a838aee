import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { awsClientConfig, env } from '#shared/config';
import { MEDIA_LINK_SECONDS } from '#shared/media/bucket-settings';

let client: S3Client | undefined;
/** The bucket's client; locally the S3 emulator of fauxqs, addressed by path (no bucket subdomains on localhost). */
const s3 = () => (client ??= new S3Client({ ...awsClientConfig(env.s3Endpoint), ...(env.s3Endpoint && { forcePathStyle: true }) }));

/** Stores one media copy. */
export async function putMedia(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: env.required('MEDIA_BUCKET'), Key: key, Body: bytes, ContentType: contentType }));
}

/** A link to a stored copy, valid MEDIA_LINK_SECONDS, signed anew on each call. */
export const mediaLink = (key: string): Promise<string> =>
  getSignedUrl(s3(), new GetObjectCommand({ Bucket: env.required('MEDIA_BUCKET'), Key: key }), { expiresIn: MEDIA_LINK_SECONDS });
