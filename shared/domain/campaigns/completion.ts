import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/db/client';
import { keys } from '#shared/db/keys';
import { nowIso } from '#shared/time';
import { campaignCounts, getCampaign } from '#shared/domain/campaigns/store';

/**
 * Completes a running campaign once its fan-out is done and no message is pending. Called after
 * the last chunk and after every message leaves `queued`; the condition makes it happen exactly
 * once, however many callers race.
 */
export async function completeIfDone(ws: string, campaignId: string): Promise<boolean> {
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
