import { OUTBOUND_STATUSES, type KindFields, type Message, type MessageMedia, type MessageStatus } from '#shared/records/message';

/** Status order: a report never moves a message backwards. `failed` is reached from queued or sent only. */
const RANK: Record<MessageStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4, received: 0 };

/** The status a report moves the message to, or null when it changes nothing. */
export function nextStatus(current: MessageStatus, reported: MessageStatus): MessageStatus | null {
  if (current === 'failed' || current === 'received') return null;
  if (reported === 'failed') return current === 'queued' || current === 'sent' ? 'failed' : null;
  return RANK[reported] > RANK[current] ? reported : null;
}

/** The statuses a report moves forward (to the same status, the report's), in the order they come. */
export const statusesMovedBy = (reported: MessageStatus): MessageStatus[] => OUTBOUND_STATUSES.filter((status) => nextStatus(status, reported) !== null);

/** The 202 answer: the message was accepted as queued (a retried request may find it further along). */
/** A message with the number it went out from or came in to: a message from before several numbers (§17) has the workspace's first. */
export type NumberedMessage = Message & { business_number_id: string };
export const numbered = (m: Message, firstNumberId: string): NumberedMessage => ({ ...m, business_number_id: m.business_number_id ?? firstNumberId });

export const createdView = (m: NumberedMessage) => ({
  message_id: m.id,
  recipient: m.phone_number,
  ...(m.user_id && { recipient_user_id: m.user_id }),
  ...(m.chat_group_id && { chat_group_id: m.chat_group_id }),
  business_number_id: m.business_number_id,
  status: 'queued' as const,
  message_type: m.message_type,
  template: m.template_name,
  language: m.language,
  created_at: m.created_at,
});

/**
 * What the message cost, once the platform charges it (contract §20): it charges a message when
 * delivered, so a priced message shows its cost from `delivered` (or `read`) on; `market` is the
 * rate card's market that priced it (a calling code, or `default`).
 */
const costView = (m: Message) =>
  m.cost && (m.status === 'delivered' || m.status === 'read') ? { amount: m.cost.amount, currency: m.cost.currency, market: m.cost.market } : null;

export const listView = (m: NumberedMessage) => ({
  id: m.id,
  phone_number: m.phone_number,
  business_number_id: m.business_number_id,
  status: m.status,
  direction: m.direction,
  message_type: m.message_type,
  template_name: m.template_name,
  campaign_id: m.campaign_id ?? m.reply_campaign_id ?? null,
  ...(m.chat_group_id && { chat_group_id: m.chat_group_id }),
  ...(m.source && { source: m.source }),
  // As the platform reported it; null until a report says (contract §20).
  pricing: m.pricing ?? null,
  cost: costView(m),
  created_at: m.created_at,
});

/** The media as clients see it: `url` is the outbound link, or the inbound copy's presigned link once it exists. */
const mediaView = (media: MessageMedia, url: string | null) => ({
  media_id: media.media_id,
  link: media.link,
  mime_type: media.mime_type,
  sha256: media.sha256,
  caption: media.caption,
  filename: media.filename,
  size: media.size,
  url: media.link ?? url,
  ...(media.download_error && { error: media.download_error }),
});

const reactionView = (reaction: NonNullable<KindFields['reaction']>) => ({
  emoji: reaction.emoji,
  message_id: reaction.message_id,
  provider_message_id: reaction.provider_message_id,
});

/** The single-message shape; `mediaUrl` is the presigned link of an inbound copy (reads only, never stored). */
const hasFlowResponse = (m: Message): boolean =>
  m.flow_response !== undefined && (m.flow_response !== null || (m.interactive as { type?: string } | null | undefined)?.type === 'nfm_reply');

export const detailView = (m: NumberedMessage, mediaUrl: string | null = null) => ({
  ...listView(m),
  language: m.language,
  content: m.content,
  template_parameters: m.template_parameters ?? null,
  rendered: m.rendered ?? null,
  media: m.media ? mediaView(m.media, mediaUrl) : null,
  location: m.location ?? null,
  interactive: m.interactive ?? null,
  button: m.button ?? null,
  reaction: m.reaction ? reactionView(m.reaction) : null,
  contacts: m.contacts ?? null,
  // Flow answers only: null also when they could not be kept; a deleted reply shows none.
  ...(hasFlowResponse(m) && { flow_response: m.flow_response }),
  context: m.context ?? null,
  ...(m.user_id && { user_id: m.user_id }),
  ...(m.username && { username: m.username }),
  ...(m.test_of_campaign && { test_of_campaign: m.test_of_campaign }),
  ...(m.retry_of && { retry_of: m.retry_of }),
  provider_message_id: m.provider_message_id,
  error: m.error,
  metadata: {
    ...m.metadata,
    played_at: m.metadata.played_at ?? null,
    edited_at: m.edited_at ?? null,
    revoked_at: m.revoked_at ?? null,
    // Platform calls made for it (contract §14): 0 until the first.
    send_attempts: m.attempts ?? 0,
  },
  updated_at: m.updated_at,
});
