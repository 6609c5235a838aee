import { ScanCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { batchWrite } from '#shared/data/table/batch-write';
import { campaignIdOfKey } from '#shared/data/campaign';
import { routePartition } from '#shared/data/business-number';
import { numberPartition } from '#shared/data/number-pause';
import { sendRatePartition } from '#shared/data/send-rate';
import { workspaceItemKey } from '#shared/data/workspace';

type Key = { PK: string; SK: string };

/** Items read per scan page: a page's deletes are one step of the erasure's progress. */
const PAGE_ITEMS = 1000;

export interface ErasurePage {
  keys: Key[];
  /** Campaigns among them, whose schedules go before their items do. */
  campaignIds: string[];
  /** Where the scan goes on; absent: the table has been read to its end. */
  next?: Record<string, unknown>;
}

/**
 * One page of a Scan of the whole table for the workspace's items, every one whatever its record:
 * every key in `WS#{ws}` and `WS#{ws}#…` (all its records, docs/data-model.md), every item that
 * names it in `workspace_id` (its API keys, revoked ones too, and its numbers' claims), and the
 * partitions of the numbers it held (pause, pace, pair slots, send-rate windows). Index entries
 * are attributes of these items, so they go with them. The workspace item itself is left for
 * last: it holds the progress. A Scan reads the whole table; an erasure is rare, and this finds
 * items no list leads to (idempotency records, windows, platform-id items).
 */
export async function scanWorkspaceItems(ws: string, numbers: string[], cursor?: Record<string, unknown>): Promise<ErasurePage> {
  const numberPartitions = numbers.flatMap((n) => [routePartition(n), numberPartition(n), sendRatePartition(n)]);
  const own = workspaceItemKey(ws);
  const { Items = [], LastEvaluatedKey } = await db().send(
    new ScanCommand({
      TableName: tableName(),
      Limit: PAGE_ITEMS,
      ExclusiveStartKey: cursor,
      ProjectionExpression: 'PK, SK',
      FilterExpression: `(begins_with(PK, :ws) OR workspace_id = :id${numberPartitions.length ? ` OR PK IN (${numberPartitions.map((_, i) => `:n${i}`).join(', ')})` : ''}) AND NOT (PK = :own AND SK = :ownSk)`,
      ExpressionAttributeValues: {
        ':ws': own.PK,
        ':id': ws,
        ':own': own.PK,
        ':ownSk': own.SK,
        ...Object.fromEntries(numberPartitions.map((pk, i) => [`:n${i}`, pk])),
      },
    }),
  );
  const keys = Items as Key[];
  return { keys, campaignIds: keys.map(campaignIdOfKey).filter((id): id is string => id !== undefined), ...(LastEvaluatedKey && { next: LastEvaluatedKey }) };
}

/** Deletes the items by key (BatchWriteItem, 25 at a time); deleting one already gone is no error. */
export const deleteItems = (keys: Key[]): Promise<void> => batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
