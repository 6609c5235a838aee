import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { awsClientConfig } from '#local/sdk-client-config';

const LOCAL_MEDIA_BUCKET = 'messaging-media-local';
/** The emulator's account: it takes `x-amz-expected-bucket-owner` without checking it. */
const LOCAL_ACCOUNT = '000000000000';

/**
 * The media bucket of the stateful stack, locally: a bucket in fauxqs's S3 emulator (the same
 * process and port as the queues), reached by the same code through S3_ENDPOINT.
 */
export async function createMediaBucket(endpoint: string): Promise<void> {
  const s3 = new S3Client({ ...awsClientConfig(endpoint), forcePathStyle: true });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: LOCAL_MEDIA_BUCKET }));
  } finally {
    s3.destroy();
  }
  Object.assign(process.env, { S3_ENDPOINT: endpoint, MEDIA_BUCKET: LOCAL_MEDIA_BUCKET, MEDIA_BUCKET_OWNER: LOCAL_ACCOUNT });
}
