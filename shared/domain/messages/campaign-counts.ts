import { tableName } from '#shared/db/client';
import { keys } from '#shared/db/keys';
import type { TransactItem } from '#shared/db/transact';
import { COUNTER_OF_STATUS } from '#shared/domain/campaigns/campaign';
import { getCampaign } from '#shared/domain/campaigns/store';
import type { MessageStatus } from '#shared/domain/messages/message';

/** A campaign's message count (all, or of one status), from the counters on the campaign. */
export async function campaignMessageCount(ws: string, campaignId: string, status?: MessageStatus): Promise<number> {
  const campaign = await getCampaign(ws, campaignId, false);
  if (!campaign) return 0;
  if (!status) return campaign.total_messages;
  const counter = COUNTER_OF_STATUS[status];
  return counter ? campaign[counter] : 0;
}

/** Moves one message between the campaign's status counters, in the message's own transaction. */
export function campaignCountMove(ws: string, campaignId: string, from: MessageStatus, to: MessageStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.campaign(ws, campaignId),
      UpdateExpression: 'ADD #from :minusOne, #to :one',
      ExpressionAttributeNames: { '#from': COUNTER_OF_STATUS[from], '#to': COUNTER_OF_STATUS[to] },
      ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
    },
  };
}
