import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { isConditionFailure, setFields } from '#shared/data/table/conditions';
import { failedConditions, transact, type TransactItem } from '#shared/data/table/transact';
import { indexes } from '#shared/data/table/table';
import { queryAll } from '#shared/data/table/query-all';
import { streamItemOf, type StreamImage } from '#shared/data/table/stream-image';
import type { BusinessNumber } from '#shared/records/business-number';
import type { AccountClaim, ClaimedBy } from '#shared/records/account-claim';
import { accountClaimedWithNumber, accountReleasedByNumber } from '#shared/data/account-claim';

/** A workspace's numbers share one partition: a workspace has a handful, always read together. */
const NUMBERS = '#NUMBERS';
const numberKey = (ws: string, id: string) => ({ PK: `WS#${ws}${NUMBERS}`, SK: id });
/** The numbers of a business account by display number: the platform names a number only so in `phone_number_quality_update`. */
const accountEntry = (wabaId: string, display?: string) => ({ GSI1PK: `WABA#${wabaId}#NUMBERS`, ...(display !== undefined && { GSI1SK: display || '-' }) });
const stored = (number: BusinessNumber) => ({
  ...numberKey(number.workspace_id, number.id),
  ...accountEntry(number.waba_id, number.display_phone_number),
  ...number,
});
/** Maps the platform's phone_number_id to its workspace, and keeps a number in at most one workspace. */
/** The partition of a number's claim (the erasure deletes it by partition: shared/data/workspace-erasure.ts). */
export const routePartition = (phoneNumberId: string) => `PHONE_NUMBER#${phoneNumberId}`;
const routeKey = (phoneNumberId: string) => ({ PK: routePartition(phoneNumberId), SK: 'PHONE_NUMBER' });

const toNumber = (item: Record<string, unknown>): BusinessNumber => {
  const { PK: _pk, SK: _sk, GSI1PK: _gpk, GSI1SK: _gsk, _w, ...number } = item;
  return number as unknown as BusinessNumber;
};

/** The route claim, as an item of a transaction: fails when any workspace holds the number. */
export const routeClaimed = (phoneNumberId: string, ws: string): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...routeKey(phoneNumberId), workspace_id: ws }, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** The workspace a platform number routes to, or undefined. */
export async function workspaceIdOfNumber(phoneNumberId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: routeKey(phoneNumberId) }));
  return Item?.workspace_id as string | undefined;
}

/**
 * Connects a number: its business account's claim (contract §22), its item (new, or a number this
 * workspace disconnected before) and its route claim in one transaction, so two workspaces
 * connecting it, or two numbers of one account, at once cannot both win.
 * `account_in_use` when another workspace holds the account, `in_use` when another holds the
 * number, `connected` when this one already does.
 */
export async function insertNumber(
  number: BusinessNumber,
  by: ClaimedBy,
  alsoWritten?: TransactItem,
): Promise<'inserted' | 'account_in_use' | 'in_use' | 'connected'> {
  const items = [
    ...(alsoWritten ? [alsoWritten] : []),
    accountClaimedWithNumber(number.waba_id, number.workspace_id, by, number.connected_at),
    routeClaimed(number.id, number.workspace_id),
    {
      Put: {
        TableName: tableName(),
        Item: stored(number),
        ConditionExpression: 'attribute_not_exists(PK) OR #status = :disconnected',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':disconnected': 'disconnected' },
      },
    },
  ];
  try {
    await transact(items);
    return 'inserted';
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    if (failed.includes(items.length - 3)) return 'account_in_use';
    return (await workspaceIdOfNumber(number.id)) === number.workspace_id ? 'connected' : 'in_use';
  }
}

/** Writes the item of a number whose route already exists (a workspace's first number, from before numbers had items), unless it has one. */
export async function insertExistingNumber(number: BusinessNumber): Promise<void> {
  try {
    await db().send(new PutCommand({ TableName: tableName(), Item: stored(number), ConditionExpression: 'attribute_not_exists(PK)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Every number the workspace ever connected, connected or not. */
export async function numbersOf(ws: string): Promise<BusinessNumber[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': numberKey(ws, '').PK },
      ConsistentRead: true,
    }),
  );
  return Items.map(toNumber);
}

/**
 * Disconnects a connected number: its item says so, its route claim goes (another workspace may
 * connect it), and its account's claim counts it no more (released with the last number). False
 * when the number or the claim changed meanwhile.
 */
export async function disconnectNumber(ws: string, id: string, at: string, claim: AccountClaim | undefined): Promise<boolean> {
  try {
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: numberKey(ws, id),
          UpdateExpression: 'SET #status = :disconnected, disconnected_at = :at, updated_at = :at',
          ConditionExpression: '#status = :connected',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':disconnected': 'disconnected', ':connected': 'connected', ':at': at },
        },
      },
      { Delete: { TableName: tableName(), Key: routeKey(id), ConditionExpression: 'workspace_id = :ws', ExpressionAttributeValues: { ':ws': ws } } },
      ...(claim ? [accountReleasedByNumber(claim)] : []),
    ]);
    return true;
  } catch (error) {
    if (failedConditions(error)) return false;
    throw error;
  }
}

/** The connected numbers of a business account with this display number (one, unless the platform reused it). */
export async function numbersByDisplay(wabaId: string, display: string): Promise<BusinessNumber[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: indexes.byParent.indexName,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :display',
      ExpressionAttributeValues: { ':pk': accountEntry(wabaId).GSI1PK, ':display': display },
    }),
  );
  return Items.map(toNumber).filter((n) => n.status === 'connected');
}

/** The connected numbers of a business account, in every workspace. */
export async function numbersOfAccount(wabaId: string): Promise<BusinessNumber[]> {
  const items = await queryAll<Record<string, unknown>>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': accountEntry(wabaId).GSI1PK },
  });
  return items.map(toNumber).filter((n) => n.status === 'connected');
}

/** The number a table stream image holds, or undefined when the image is another record's. */
export function numberFromStreamImage(image: StreamImage | undefined): BusinessNumber | undefined {
  const item = streamItemOf(image, (key) => key.PK.endsWith(NUMBERS));
  return item && toNumber(item);
}

/** What the platform last said of a number (quality, limit, name); undefined when the workspace has no such number. */
export async function updateNumberDetails(
  ws: string,
  id: string,
  details: Partial<
    Pick<BusinessNumber, 'quality_rating' | 'messaging_limit' | 'verified_name' | 'display_phone_number' | 'throughput_mps' | 'coexistence' | 'updated_at'>
  >,
): Promise<BusinessNumber | undefined> {
  const { expression, names, values } = setFields({
    ...details,
    ...(details.display_phone_number !== undefined && { GSI1SK: details.display_phone_number || '-' }),
  });
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: numberKey(ws, id),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toNumber(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
