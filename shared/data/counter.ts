import type { TransactItem } from '#shared/data/table/transact';
import { tableName } from '#shared/data/table/client';
import { readCounter } from '#shared/data/table/pages';

/**
 * Exact counts for lists: one item per counted thing (all contacts, each tag, all groups, all
 * campaigns), moved in the same transactions as the records they count.
 */
export const counterKey = (ws: string, name: string) => ({ PK: `WS#${ws}#COUNTERS`, SK: name });

export const counterNames = {
  contacts: 'contacts',
  groups: 'groups',
  campaigns: 'campaigns',
  tag: (tag: string) => `tag#${tag}`,
};

/** Moves a list counter by `delta`, as one item of the caller's transaction. */
export const counterMove = (ws: string, name: string, delta: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: counterKey(ws, name),
    UpdateExpression: 'ADD #count :delta',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':delta': delta },
  },
});

export const readListCount = (ws: string, name: string): Promise<number> => readCounter(counterKey(ws, name));
