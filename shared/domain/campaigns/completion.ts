import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { nowIso } from '#shared/time';
import { campaignCounts, getCampaign } from '#shared/domain/campaigns/store';

/** Whether the metric shard a message just left `queued` in still has pending messages. */
async function shardPending(ws: string, campaignId: string, shard: number): Promise<boolean> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.campaignMetrics(ws, campaignId, shard), ConsistentRead: true }));
  return Number(Item?.pending ?? 0) > 0;
}

/**
 * Completes a running campaign once its fan-out is done and no message is pending. Called after
 * the last chunk and after every message leaves `queued`; the condition makes it happen exactly
 * once, however many callers race. A message names its own shard (`movedShard`): while that one
 * still has pending messages, one read settles it, and the last message of each shard, which
 * reads after its own move commits, still looks at the whole campaign.
 */
export async function completeIfDone(ws: string, campaignId: string, movedShard?: number): Promise<boolean> {
  if (movedShard !== undefined && (await shardPending(ws, campaignId, movedShard))) return false;
  const campaign = await getCampaign(ws, campaignId);
  if (!campaign || campaign.status !== 'running' || !campaign.fanout_done) return false;
  // Once the fan-out is done nothing adds to pending, so a zero read now stays zero.
  const counts = await campaignCounts(ws, campaignId);
  if (counts.pending !== 0) return false;
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.campaign(ws, campaignId),
        UpdateExpression: 'SET #status = :completed, completed_at = :now, completion_counts = :counts',
        ConditionExpression: '#status = :running AND fanout_done = :true',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':running': 'running', ':true': true, ':now': nowIso(), ':counts': counts },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
