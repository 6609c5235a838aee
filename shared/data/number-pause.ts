import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';

/**
 * A business number whose sending is paused by an account-level platform error (contract §16):
 * the error, since when, and when the next probe may go. Keyed by the platform number, which is
 * unique across workspaces; it exists only while the pause lasts.
 */
/** A number's own partition, shared by its pause, its pace (number-pace.ts) and its pair slots (pair-pace.ts). */
export const numberPartition = (phoneNumberId: string) => `NUMBER#${phoneNumberId}`;
export const pauseKey = (phoneNumberId: string) => ({ PK: numberPartition(phoneNumberId), SK: 'PAUSE' });

export interface NumberPause {
  code: number | string;
  title: string;
  since: string;
  /** Epoch milliseconds after which one waiting message may probe the platform. */
  probe_at: number;
  /** Probes made so far: the interval between them grows with it. */
  probes: number;
}

export async function getPause(phoneNumberId: string): Promise<NumberPause | undefined> {
  // Eventually consistent: a pause seen a moment late costs one more refused call, the probe's write is conditional.
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: pauseKey(phoneNumberId) }));
  return Item as NumberPause | undefined;
}

/** Starts the pause, or records the newest error of one already running (its `since` and probe schedule kept). */
export async function recordPause(phoneNumberId: string, error: { code: number | string; title: string }, since: string, probeAt: number): Promise<void> {
  for (;;) {
    const started = await conditionally(
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...pauseKey(phoneNumberId), code: error.code, title: error.title, since, probe_at: probeAt, probes: 0 },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    if (started) return;
    // A pause exists: it takes the newest error; one that ended in between is started anew.
    const updated = await conditionally(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: pauseKey(phoneNumberId),
          UpdateExpression: 'SET code = :code, title = :title',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':code': error.code, ':title': error.title },
        }),
      ),
    );
    if (updated) return;
  }
}

/** One waiting message takes the probe: true for the one whose conditional write moved `probe_at` on. */
export const takeProbe = (phoneNumberId: string, pause: NumberPause, nextProbeAt: number): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: pauseKey(phoneNumberId),
        UpdateExpression: 'SET probe_at = :next ADD probes :one',
        ConditionExpression: 'probe_at = :seen',
        ExpressionAttributeValues: { ':next': nextProbeAt, ':seen': pause.probe_at, ':one': 1 },
      }),
    ),
  );

/** The platform accepted a message again: the pause is over. */
export async function endPause(phoneNumberId: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: pauseKey(phoneNumberId) }));
}
