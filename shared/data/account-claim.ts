import { DeleteCommand, GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { isConditionFailure } from '#shared/data/table/conditions';
import type { TransactItem } from '#shared/data/table/transact';
import type { AccountClaim, ClaimedBy } from '#shared/records/account-claim';

/**
 * One item per business account, naming the workspace that holds it (contract §22). Its
 * `workspace_id` attribute makes it one of the workspace's items, so an erasure deletes it.
 */
const claimKey = (wabaId: string) => ({ PK: `WABA#${wabaId}`, SK: 'ACCOUNT' });

const toClaim = (item: Record<string, unknown>): AccountClaim => ({
  waba_id: item.waba_id as string,
  workspace_id: item.workspace_id as string,
  connected_by: item.connected_by as ClaimedBy,
  number_count: Number(item.number_count ?? 0),
  claimed_at: item.claimed_at as string,
});

export async function getAccountClaim(wabaId: string): Promise<AccountClaim | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: claimKey(wabaId), ConsistentRead: true }));
  return Item ? toClaim(Item) : undefined;
}

/**
 * The claim as an update: it takes a free account or one the workspace already holds, and counts
 * `numbers` more connected numbers. Who connected it first stays: a workspace adding a number to
 * an account the operator connected for it does not make it its own.
 */
const claimUpdate = (wabaId: string, ws: string, by: ClaimedBy, at: string, numbers: 0 | 1) => ({
  TableName: tableName(),
  Key: claimKey(wabaId),
  UpdateExpression:
    'SET waba_id = :waba, workspace_id = :ws, connected_by = if_not_exists(connected_by, :by), claimed_at = if_not_exists(claimed_at, :at) ADD number_count :n',
  ConditionExpression: 'attribute_not_exists(PK) OR workspace_id = :ws',
  ExpressionAttributeValues: { ':waba': wabaId, ':ws': ws, ':by': by, ':at': at, ':n': numbers },
});

/** The account's claim as an item of a number's connection: fails when another workspace holds the account. */
export const accountClaimedWithNumber = (wabaId: string, ws: string, by: ClaimedBy, at: string): TransactItem => ({
  Update: claimUpdate(wabaId, ws, by, at, 1),
});

/** Claims the account before any of its numbers is connected (an Embedded Signup); false when another workspace holds it. */
export async function claimAccount(wabaId: string, ws: string, by: ClaimedBy, at: string): Promise<boolean> {
  try {
    await db().send(new UpdateCommand(claimUpdate(wabaId, ws, by, at, 0)));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * A number's disconnection, as an item of its transaction: the claim counts one number fewer, and
 * goes with the last one, so another workspace may connect the account. Conditioned on the count
 * read, so two disconnections at once cannot both think theirs the last.
 */
export function accountReleasedByNumber(claim: AccountClaim): TransactItem {
  const held = { ':ws': claim.workspace_id, ':count': claim.number_count };
  if (claim.number_count <= 1)
    return {
      Delete: {
        TableName: tableName(),
        Key: claimKey(claim.waba_id),
        ConditionExpression: 'workspace_id = :ws AND number_count = :count',
        ExpressionAttributeValues: held,
      },
    };
  return {
    Update: {
      TableName: tableName(),
      Key: claimKey(claim.waba_id),
      UpdateExpression: 'ADD number_count :less',
      ConditionExpression: 'workspace_id = :ws AND number_count = :count',
      ExpressionAttributeValues: { ...held, ':less': -1 },
    },
  };
}

/** Undoes a claim this workspace made a moment ago (its connection failed on the platform): only while no number counts on it. */
export async function dropEmptyClaim(wabaId: string, ws: string): Promise<void> {
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: claimKey(wabaId),
        ConditionExpression: 'workspace_id = :ws AND number_count = :none',
        ExpressionAttributeValues: { ':ws': ws, ':none': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Writes the claim of an account whose numbers were connected before claims existed (the upgrade); false when one exists already. */
export async function insertClaim(claim: AccountClaim): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: claimKey(claim.waba_id),
        UpdateExpression: 'SET waba_id = :waba, workspace_id = :ws, connected_by = :by, claimed_at = :at, number_count = :n',
        ConditionExpression: 'attribute_not_exists(PK)',
        ExpressionAttributeValues: {
          ':waba': claim.waba_id,
          ':ws': claim.workspace_id,
          ':by': claim.connected_by,
          ':at': claim.claimed_at,
          ':n': claim.number_count,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
