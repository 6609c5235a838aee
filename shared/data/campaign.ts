import { GetCommand, UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { queryAll } from '#shared/data/table/query-all';
import { conditionally, isConditionFailure, setFields } from '#shared/data/table/conditions';
import { queryPage } from '#shared/data/table/pages';
import { indexes } from '#shared/data/table/table';
import { streamItemOf, type StreamImage } from '#shared/data/table/stream-image';
import { transact } from '#shared/data/table/transact';
import { counterMove, counterNames, readListCount } from '#shared/data/counter';
import type { Campaign, CampaignCounts, CampaignStatus } from '#shared/records/campaign';
import { STREAMED_SORT_KEYS } from '#shared/data/table/stream-filters';

/** The campaign item; its metric shards and audience chunks live in the same partition. */
export const campaignPartition = (ws: string, id: string) => `WS#${ws}#CAMPAIGN#${id}`;
const CAMPAIGN = STREAMED_SORT_KEYS.campaign;
export const campaignKey = (ws: string, id: string) => ({ PK: campaignPartition(ws, id), SK: CAMPAIGN });
/** The campaign's id when `key` is a campaign item's key (the erasure deletes its schedules). */
export const campaignIdOfKey = (key: { PK: string; SK: string }): string | undefined =>
  key.SK === CAMPAIGN ? /^WS#[^#]+#CAMPAIGN#([^#]+)$/.exec(key.PK)?.[1] : undefined;
const campaignListEntry = (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CAMPAIGNS`, ...(id && { GSI1SK: id }) });

export async function insertCampaign(campaign: Campaign): Promise<void> {
  const ws = campaign.workspace_id;
  await transact([
    {
      Put: {
        TableName: tableName(),
        Item: { ...campaignKey(ws, campaign.id), ...campaignListEntry(ws, campaign.id), ...campaign },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    counterMove(ws, counterNames.campaigns, 1),
  ]);
}

export async function getCampaign(ws: string, id: string, consistent = true): Promise<Campaign | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: campaignKey(ws, id), ConsistentRead: consistent }));
  return Item as Campaign | undefined;
}

/** The campaign a table stream image holds, or undefined when the image is another record's (its metric shards and audience chunks included). */
export const campaignFromStreamImage = (image: StreamImage | undefined): Campaign | undefined =>
  streamItemOf(image, (key) => key.SK === CAMPAIGN) as Campaign | undefined;

/** A page of the workspace's campaigns, newest first, with the exact count from the campaign counter. */
export async function campaignsPage(ws: string, page: number, pageSize: number): Promise<{ campaigns: Campaign[]; total: number }> {
  const query = {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': campaignListEntry(ws).GSI1PK },
    ScanIndexForward: false,
  };
  const [campaigns, total] = await Promise.all([queryPage<Campaign>(query, page, pageSize), readListCount(ws, counterNames.campaigns)]);
  return { campaigns, total };
}

/** The workspace's running campaigns (a handful at most; the list index filtered by status). */
export const runningCampaigns = (ws: string): Promise<Campaign[]> =>
  queryAll<Campaign>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    FilterExpression: '#status = :running',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': campaignListEntry(ws).GSI1PK, ':running': 'running' },
  });

/** Sets fields only while the campaign is in one of `from`; the campaign as written, or undefined when it is not (or does not exist). */
export async function moveCampaignFrom(ws: string, id: string, from: CampaignStatus[], set: Record<string, unknown>): Promise<Campaign | undefined> {
  const { expression, names, values } = setFields(set);
  from.forEach((status, i) => (values[`:from${i}`] = status));
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKey(ws, id),
        UpdateExpression: expression,
        ConditionExpression: `attribute_exists(PK) AND #status_now IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { ...names, '#status_now': 'status' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Campaign;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Marks the last chunk's messages as created, for this launch (or retry round) only. */
export async function markFanoutDone(ws: string, id: string, launchId: string, retryId?: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: campaignKey(ws, id),
      UpdateExpression: 'SET fanout_done = :true',
      ConditionExpression: retryId ? 'launch_id = :launch AND retry_id = :retry' : 'launch_id = :launch AND attribute_not_exists(retry_id)',
      ExpressionAttributeValues: { ':true': true, ':launch': launchId, ...(retryId && { ':retry': retryId }) },
    }),
  );
}

/** Records the resolution of this launch's pending segment, once: false when it was recorded already. */
export const settleSegment = (ws: string, id: string, launchId: string, set: Record<string, unknown>): Promise<boolean> => {
  const { expression, names, values } = setFields(set);
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKey(ws, id),
        UpdateExpression: `${expression} REMOVE segment_pending`,
        ConditionExpression: 'attribute_exists(segment_pending) AND launch_id = :launch',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':launch': launchId },
      }),
    ),
  );
};

/** Completes a running campaign whose fan-out is done, with its final counts; the condition makes it happen once. */
export const completeCampaign = (ws: string, id: string, at: string, counts: CampaignCounts): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: campaignKey(ws, id),
        UpdateExpression: 'SET #status = :completed, completed_at = :now, completion_counts = :counts',
        ConditionExpression: '#status = :running AND fanout_done = :true',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':running': 'running', ':true': true, ':now': at, ':counts': counts },
      }),
    ),
  );
