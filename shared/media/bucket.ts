import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { awsClientConfig, env } from '#shared/config';

let client: S3Client | undefined;
/** The media bucket's client; locally the S3 emulator of fauxqs, addressed by path (no bucket subdomains on localhost). */
export const s3 = () => (client ??= new S3Client({ ...awsClientConfig(env.s3Endpoint), ...(env.s3Endpoint && { forcePathStyle: true }) }));

export const mediaBucket = () => env.required('MEDIA_BUCKET');

/** Stores one object: a media copy, or a platform webhook too large for a queue message. */
export async function putObject(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: mediaBucket(), Key: key, Body: bytes, ContentType: contentType }));
}

/** An object's bytes as text (a stored platform webhook). */
export async function getText(key: string): Promise<string> {
  const { Body } = await s3().send(new GetObjectCommand({ Bucket: mediaBucket(), Key: key }));
  return Body!.transformToString('utf8');
}
