import { PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { AUDIENCE_KEPT_MS } from '#shared/data/audience-chunk';
import { campaignPartition } from '#shared/data/campaign';
import { db, tableName } from '#shared/data/table/client';
import { conditionallyOrFound } from '#shared/data/table/conditions';
import { epochSeconds } from '#shared/time';

/** One fan-out round's chunk: the launch's, or a retry round's (contract §15). */
export interface RoundChunk {
  workspace_id: string;
  campaign_id: string;
  launch_id: string;
  retry_id?: string;
  chunk: number;
}

/**
 * Which queue message's job writes a chunk's messages, and whether it has written them all: a
 * small item beside the campaign, one per round and chunk, kept as long as the audience.
 */
const writerKey = (c: RoundChunk) => ({
  PK: campaignPartition(c.workspace_id, c.campaign_id),
  SK: `CHUNK_WRITER#${c.launch_id}#${c.retry_id ?? 'launch'}#${String(c.chunk).padStart(5, '0')}`,
});

/** A try of a fan-out job: its queue message, and how many times that message has been received. */
export interface ChunkTry {
  jobId: string;
  receiveCount: number;
}

/**
 * `first`: this try's job is the chunk's writer, and nothing of the chunk was written before.
 * `again`: its job is the writer, come back after a try that may have written part of it.
 * `written`: its job is the writer and wrote it all before. `other`: another job is the writer,
 * or another copy of this try's own delivery (a queue may hand one message out twice) holds it.
 */
export type ChunkWriter = 'first' | 'again' | 'written' | 'other';

/** Makes the job of this try the chunk's writer, unless another job (or delivery) is: one conditional write, two when it comes back. */
export async function takeChunk(chunk: RoundChunk, attempt: ChunkTry): Promise<ChunkWriter> {
  const taken = await conditionallyOrFound(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...writerKey(chunk),
          writer: attempt.jobId,
          receive: attempt.receiveCount,
          written: false,
          expires_at: epochSeconds() + AUDIENCE_KEPT_MS / 1000,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    ),
  );
  if (taken.applied) return 'first';
  const held = taken.found;
  if (held?.writer !== attempt.jobId) return 'other';
  if (held.written) return 'written';
  // A later receive of the writer's message: the try that holds it has ended (its visibility time-out passed). Only one later receive takes it.
  if (Number(held.receive) >= attempt.receiveCount) return 'other';
  const retaken = await conditionallyOrFound(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: writerKey(chunk),
        UpdateExpression: 'SET receive = :receive',
        ConditionExpression: 'receive < :receive AND written = :false',
        ExpressionAttributeValues: { ':receive': attempt.receiveCount, ':false': false },
      }),
    ),
  );
  return retaken.applied ? 'again' : 'other';
}

/**
 * The chunk's messages are all written: a job of it that comes back only goes on with the fan-out.
 * Also written, writer-less, for a chunk the fan-out queue gave up on, before its messages are
 * failed: a job of that chunk still to come then finds another writer and writes nothing.
 */
export async function markChunkWritten(chunk: RoundChunk): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: writerKey(chunk),
      UpdateExpression: 'SET written = :true, expires_at = if_not_exists(expires_at, :expires)',
      ExpressionAttributeValues: { ':true': true, ':expires': epochSeconds() + AUDIENCE_KEPT_MS / 1000 },
    }),
  );
}
