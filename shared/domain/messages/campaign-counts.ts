import type { TransactItem } from '#shared/db/transact';
import type { MessageStatus } from '#shared/domain/messages/message';

/**
 * A campaign's message count, optionally for one status. Campaign metrics arrive with the
 * campaigns capability; until then no message belongs to a campaign.
 */
export async function campaignMessageCount(_ws: string, _campaignId: string, _status?: MessageStatus): Promise<number> {
  return 0;
}

/** The campaign counter move that goes with a campaign message's status change. */
export function campaignCountMove(_ws: string, _campaignId: string, _messageId: string, _from: MessageStatus, _to: MessageStatus): TransactItem {
  throw new Error('Campaign messages arrive with the campaigns capability');
}
