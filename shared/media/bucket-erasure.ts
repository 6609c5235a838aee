import { mapLimit } from '#shared/concurrency';
import { deleteObject, listKeys } from '#shared/media/bucket';

/** The prefix of a workspace's media copies (shared/domain/messages/media-copy.ts: `{workspace}/{message}/{media}`). */
export const workspaceMediaPrefix = (workspaceId: string) => `${workspaceId}/`;

/** Deletes up to 1,000 objects under `prefix` (one listing page), 16 at a time; how many it deleted (0: none left). */
export async function deleteObjectsPage(prefix: string): Promise<number> {
  const keys = await listKeys(prefix);
  await mapLimit(keys, 16, deleteObject);
  return keys.length;
}
