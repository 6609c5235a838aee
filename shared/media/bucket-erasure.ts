import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { serviceClientConfig } from '#shared/aws-client-config';
import { env } from '#shared/config';
import { mediaBucket } from '#shared/media/bucket';

let instance: S3Client | undefined;
// The SDK's client here (not bucket.ts's signed fetch): only the erasure worker lists and deletes, and its cold start does not matter.
const s3 = () => (instance ??= new S3Client({ ...serviceClientConfig(env.s3Endpoint), forcePathStyle: Boolean(env.s3Endpoint) }));

/** The prefix of a workspace's media copies (shared/domain/messages/media-copy.ts: `{workspace}/{message}/{media}`). */
export const workspaceMediaPrefix = (workspaceId: string) => `${workspaceId}/`;

/** Deletes up to 1,000 objects under `prefix` (one listing page); how many it deleted (0: none left). */
export async function deleteObjectsPage(prefix: string): Promise<number> {
  const { Contents = [] } = await s3().send(new ListObjectsV2Command({ Bucket: mediaBucket(), Prefix: prefix, MaxKeys: 1000 }));
  const keys = Contents.flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
  if (!keys.length) return 0;
  const { Errors } = await s3().send(new DeleteObjectsCommand({ Bucket: mediaBucket(), Delete: { Objects: keys, Quiet: true } }));
  if (Errors?.length) throw new Error(`S3 did not delete ${Errors.length} objects: ${Errors[0].Code} ${Errors[0].Message}`);
  return keys.length;
}
