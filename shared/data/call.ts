import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { queryPage } from '#shared/data/table/pages';
import { indexes } from '#shared/data/table/table';
import { transact } from '#shared/data/table/transact';
import { isConditionFailure } from '#shared/data/table/conditions';
import { streamItemOf, type StreamImage } from '#shared/data/table/stream-image';
import { STREAMED_SORT_KEYS, SKIPPED_SORT_KEYS } from '#shared/data/table/stream-filters';
import { counterMove, readListCount } from '#shared/data/counter';
import type { Call, CallPermission } from '#shared/records/call';

/**
 * A call (contract §23): one item, versioned (the platform's webhooks and the API's answers change
 * it), in the workspace's call log, with a lookup by the platform's call id, which every webhook
 * and action names. A customer's call permission: one item per number and customer.
 */
const CALL = STREAMED_SORT_KEYS.call;
const PERMISSION = STREAMED_SORT_KEYS.callPermission;
export const callKey = (ws: string, id: string) => ({ PK: `WS#${ws}#CALL#${id}`, SK: CALL });
const listEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CALLS`, ...(id && { GSI1SK: id }) });
const refKey = (ws: string, platformCallId: string) => ({ PK: `WS#${ws}#CALL_REF#${platformCallId}`, SK: SKIPPED_SORT_KEYS.callRef });
const permissionKey = (ws: string, numberId: string, customer: string) => ({ PK: `WS#${ws}#CALL_PERMISSION#${numberId}#${customer}`, SK: PERMISSION });
const LIST_COUNTER = 'calls';

export type StoredCall = Call & { version: number };

const fields = (item: Record<string, unknown>): StoredCall => {
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, ...call } = item;
  return call as unknown as StoredCall;
};

/** Stores a new call with its lookup; the call already stored under that platform id when there is one (a webhook handed over twice). */
export async function insertCall(call: Call): Promise<StoredCall> {
  const ws = call.workspace_id;
  const stored = { ...call, version: 1 };
  try {
    await transact([
      {
        Put: {
          TableName: tableName(),
          Item: { ...callKey(ws, call.id), ...listEntry(ws, call.id), ...stored },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { Put: { TableName: tableName(), Item: { ...refKey(ws, call.platform_call_id), call_id: call.id }, ConditionExpression: 'attribute_not_exists(PK)' } },
      counterMove(ws, LIST_COUNTER, 1),
    ]);
    return stored;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const existing = await callByPlatformId(ws, call.platform_call_id);
    if (!existing) throw error;
    return existing;
  }
}

export async function getCall(ws: string, id: string, consistent = false): Promise<StoredCall | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: callKey(ws, id), ConsistentRead: consistent }));
  return Item ? fields(Item) : undefined;
}

export async function callByPlatformId(ws: string, platformCallId: string): Promise<StoredCall | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: refKey(ws, platformCallId), ConsistentRead: true }));
  return Item ? getCall(ws, String(Item.call_id), true) : undefined;
}

/** Replaces the call with `next` if nobody wrote it since `current` was read; false when another write came first. */
export async function replaceCall(current: StoredCall, next: Call): Promise<boolean> {
  const ws = current.workspace_id;
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...callKey(ws, current.id), ...listEntry(ws, current.id), ...next, version: current.version + 1 },
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': current.version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A page of the call log, newest first, with its exact count. */
export async function callsPage(ws: string, page: number, pageSize: number): Promise<{ calls: Call[]; total: number }> {
  const query = {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listEntry(ws).GSI1PK },
    ScanIndexForward: false,
  };
  const [items, total] = await Promise.all([queryPage(query, page, pageSize), readListCount(ws, LIST_COUNTER)]);
  return { calls: items.map(fields), total };
}

export async function getCallPermission(ws: string, numberId: string, customer: string): Promise<CallPermission | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: permissionKey(ws, numberId, customer), ConsistentRead: true }));
  return Item as CallPermission | undefined;
}

/** Records the customer's latest answer; an older reply than the one stored changes nothing. */
export async function putCallPermission(permission: CallPermission): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...permissionKey(permission.workspace_id, permission.business_number_id, permission.customer), ...permission },
        ConditionExpression: 'attribute_not_exists(PK) OR updated_at < :at',
        ExpressionAttributeValues: { ':at': permission.updated_at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export const callFromStreamImage = (image: StreamImage | undefined): Call | undefined => {
  const item = streamItemOf(image, (key) => key.SK === CALL);
  return item && fields(item);
};

export const callPermissionFromStreamImage = (image: StreamImage | undefined): CallPermission | undefined =>
  streamItemOf(image, (key) => key.SK === PERMISSION) as CallPermission | undefined;
