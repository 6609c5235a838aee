import { campaignKey } from '#shared/data/campaign';
import { phoneClaimKey } from '#shared/data/contact';
import { messageKey, storedMessage, type StoredMessage } from '#shared/data/message';
import { pauseKey, type NumberPause } from '#shared/data/number-pause';
import { coalescedGets } from '#shared/data/table/coalesced-gets';
import { templateKey, toTemplate } from '#shared/data/template';
import type { Campaign } from '#shared/records/campaign';
import type { Template } from '#shared/records/template';

/** What a send job reads before its decisions: its message, and, when the job names them, its campaign, its number's pause, its recipient's opt-out and its template. */
export interface SendReads {
  message: StoredMessage | undefined;
  /** Read only when the job named the campaign: null when there is none. */
  campaign?: Campaign | null;
  /** Read only when the number was named: the number's pause, null when it is not paused. */
  pause?: { numberId: string; pause: NumberPause | null };
  /** Read only when the job named the recipient's number: its claim's opt-out (null when it has no contact, or did not opt out). */
  optedOutAt?: string | null;
  /** Read only when the job named a single template message's template: null when the business account has no such template. */
  template?: Template | null;
}

/** A template by its business account (undefined: the workspace's first), name and language. */
export interface NamedTemplate {
  account: string | undefined;
  name: string;
  language: string;
}

const templateOrNull = (item: Record<string, unknown> | undefined): Template | null => (item ? toTemplate(item) : null);

/** The first reads of the jobs of one queue batch, which start together: a job's reads wait this long for the others'. */
const SEND_READS_WINDOW_MS = 2;
const readTogether = /* @__PURE__ */ coalescedGets({ windowMs: SEND_READS_WINDOW_MS, consistent: true });

/**
 * The message (strongly consistent, as the claim needs), with its campaign, its number's pause,
 * its recipient's phone claim and a single message's template in the same BatchGetItem, shared
 * with the other jobs of its queue batch: one call for a batch's reads (issue 29). The others are
 * read strongly consistent with it; the steps that use them need no more than an eventually
 * consistent read, taken a moment earlier than their own read would be (the template's is used
 * only while fresh: domain/messages/send-template.ts).
 */
export async function readForSend(
  ws: string,
  messageId: string,
  named: { campaignId?: string; numberId?: string; recipientPhone?: string; template?: NamedTemplate },
): Promise<SendReads> {
  const template = named.template && templateKey(ws, named.template.account, named.template.name, named.template.language);
  const keys = [
    messageKey(ws, messageId),
    ...(named.campaignId ? [campaignKey(ws, named.campaignId)] : []),
    ...(named.numberId ? [pauseKey(named.numberId)] : []),
    ...(named.recipientPhone ? [phoneClaimKey(ws, named.recipientPhone)] : []),
    ...(template ? [template] : []),
  ];
  const items = await readTogether(keys);
  const found = (key: { PK: string; SK: string }) => items.find((item) => item.PK === key.PK && item.SK === key.SK);
  const message = found(keys[0]);
  return {
    message: message && storedMessage(message),
    ...(named.campaignId && { campaign: (found(campaignKey(ws, named.campaignId)) as Campaign | undefined) ?? null }),
    ...(named.numberId && { pause: { numberId: named.numberId, pause: (found(pauseKey(named.numberId)) as NumberPause | undefined) ?? null } }),
    ...(named.recipientPhone && { optedOutAt: (found(phoneClaimKey(ws, named.recipientPhone))?.opted_out_at as string | null | undefined) ?? null }),
    ...(template && { template: templateOrNull(found(template)) }),
  };
}
