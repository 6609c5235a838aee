import { campaignKey } from '#shared/data/campaign';
import { messageKey, storedMessage, type StoredMessage } from '#shared/data/message';
import { pauseKey, type NumberPause } from '#shared/data/number-pause';
import { getMany } from '#shared/data/table/pages';
import type { Campaign } from '#shared/records/campaign';

/** What a send job reads before its decisions: its message, and, when the job names them, its campaign and its number's pause. */
export interface SendReads {
  message: StoredMessage | undefined;
  /** Read only when the job named the campaign: null when there is none. */
  campaign?: Campaign | null;
  /** Read only when the job named the number: null when it is not paused. */
  pause?: NumberPause | null;
}

/**
 * The message (strongly consistent, as the claim needs), with its campaign and its number's
 * pause in the same BatchGetItem: three reads in one call (issue 29). The campaign and the pause
 * are read strongly consistent with it; the steps that use them need no more than an eventually
 * consistent read, taken a moment earlier than their own read would be.
 */
export async function readForSend(ws: string, messageId: string, named: { campaignId?: string; numberId?: string }): Promise<SendReads> {
  const keys = [
    messageKey(ws, messageId),
    ...(named.campaignId ? [campaignKey(ws, named.campaignId)] : []),
    ...(named.numberId ? [pauseKey(named.numberId)] : []),
  ];
  const items = await getMany<Record<string, unknown> & { PK: string; SK: string }>(keys, true);
  const found = (key: { PK: string; SK: string }) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const message = found(keys[0]);
  return {
    message: message && storedMessage(message),
    ...(named.campaignId && { campaign: (found(campaignKey(ws, named.campaignId)) as Campaign | undefined) ?? null }),
    ...(named.numberId && { pause: (found(pauseKey(named.numberId)) as NumberPause | undefined) ?? null }),
  };
}
