import { UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { messageKey, putPlatformId, waitingEntry } from '#shared/data/message';
import type { Message } from '#shared/records/message';

/*
 * The send worker's writes on a stored message: its claim, and what it leaves when it lets go
 * (the claim given back, held for a window, held as ambiguous, the platform's id kept).
 */

/** Only the worker whose conditional write sets the claim may call the platform for this message. */
export const claimForSend = (message: Message, token: string): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        // A message held for its send window leaves the window's index as it goes (it keeps `window_opens_at`: its waits count from then).
        UpdateExpression: 'SET claim = :claim ADD attempts :one REMOVE ambiguous_since, GSI1PK, GSI1SK',
        ConditionExpression: '#status = :queued AND attribute_not_exists(claim)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':claim': { token, at: Date.now() }, ':queued': 'queued', ':one': 1 },
      }),
    ),
  );

/**
 * Gives the message back to the queue after a call the platform refused without sending;
 * `uncounted` takes the call back from `attempts` (a refusal about the account or the pace, not
 * the message) and counts it in `waits` instead, which spaces the message's next tries.
 */
export async function releaseClaim(message: Message, token: string, uncounted = false, budgetReserved?: number): Promise<void> {
  // A campaign budget's reservation made under this claim is recorded as it is given back: a later try does not reserve again.
  const reserved = budgetReserved !== undefined;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: messageKey(message.workspace_id, message.id),
      UpdateExpression: `${reserved ? 'SET budget_reserved = :reserved ' : ''}${uncounted ? 'REMOVE claim ADD attempts :minusOne, waits :one' : 'REMOVE claim'}`,
      ConditionExpression: 'claim.#token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: { ':token': token, ...(uncounted && { ':minusOne': -1, ':one': 1 }), ...(reserved && { ':reserved': budgetReserved }) },
    }),
  );
}

/**
 * Holds a claimed campaign message until its send window opens (contract §15): the claim is given
 * back, its attempt taken back (no call was made), and the message enters the window's index.
 */
export async function holdForWindow(message: Message, token: string, opensAt: string): Promise<void> {
  const entry = waitingEntry(message.workspace_id, message.campaign_id!, opensAt, message.id);
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: 'SET window_opens_at = :opens, GSI1PK = :pk, GSI1SK = :sk REMOVE claim ADD attempts :minusOne',
        ConditionExpression: 'claim.#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': token, ':opens': opensAt, ':pk': entry.GSI1PK, ':sk': entry.GSI1SK, ':minusOne': -1 },
      }),
    ),
  );
}

/**
 * A send whose outcome is unknown (the call timed out, or its worker died during it): the claim
 * is given back with the time since when the platform's report is awaited (contract §14).
 */
export async function holdAmbiguous(message: Message, token: string, since: string, budgetReserved?: number): Promise<void> {
  const reserved = budgetReserved !== undefined;
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: `SET ambiguous_since = :since${reserved ? ', budget_reserved = :reserved' : ''} REMOVE claim`,
        ConditionExpression: 'claim.#token = :token',
        ExpressionAttributeNames: { '#token': 'token' },
        ExpressionAttributeValues: { ':token': token, ':since': since, ...(reserved && { ':reserved': budgetReserved }) },
      }),
    ),
  );
}

/** Keeps the platform's id when a report moved the message before our own write landed; nothing when it is set already. */
export async function recordProviderId(message: Message, providerMessageId: string): Promise<void> {
  await putPlatformId(message, providerMessageId);
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: messageKey(message.workspace_id, message.id),
        UpdateExpression: 'SET provider_message_id = :id REMOVE claim',
        ConditionExpression: 'provider_message_id = :null',
        ExpressionAttributeValues: { ':id': providerMessageId, ':null': null },
      }),
    ),
  );
}
