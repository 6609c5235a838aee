import { GetCommand } from '#shared/data/table/commands';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { campaignPartition } from '#shared/data/campaign';
import type { Recipient } from '#shared/records/campaign';
import { epochSeconds } from '#shared/time';

/** Audience chunks are kept a while after launch, for test sends and retries, then expire. */
export const AUDIENCE_KEPT_MS = 30 * 86_400_000;

/** The resolved audience of one launch, in chunks the fan-out works through one job at a time. */
const chunkKey = (ws: string, campaignId: string, launchId: string, chunk: number) => ({
  PK: campaignPartition(ws, campaignId),
  SK: `AUDIENCE#${launchId}#${String(chunk).padStart(5, '0')}`,
});

/** Writes the chunks numbered from `first` on. */
export async function writeAudienceChunks(ws: string, campaignId: string, launchId: string, chunks: Recipient[][], first = 0): Promise<void> {
  const expires = epochSeconds() + AUDIENCE_KEPT_MS / 1000;
  await batchWrite(
    chunks.map((recipients, i) => ({ PutRequest: { Item: { ...chunkKey(ws, campaignId, launchId, first + i), recipients, expires_at: expires } } })),
  );
}

/** One chunk's recipients, read strongly consistent (written just before the launch committed), or undefined. */
export async function readAudienceChunk(ws: string, campaignId: string, launchId: string, chunk: number): Promise<Recipient[] | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: chunkKey(ws, campaignId, launchId, chunk), ConsistentRead: true }));
  return Item?.recipients as Recipient[] | undefined;
}
