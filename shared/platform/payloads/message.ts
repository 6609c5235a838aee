/** A message to send: the platform's `type` and its object, built by this folder's module for the kind. */
export interface OutgoingMessage {
  /** The customer's number; with `recipient` too, the platform takes this one. */
  to?: string;
  /** The customer's business-scoped user id (Meta, "Business-scoped user IDs", "Send message requests"). */
  recipient?: string;
  /** A chat group's platform id: sent as `to` with `recipient_type: group` (docs/platform-groups.md §2). */
  group?: string;
  /** The platform's message `type` (`template`, `text`, `image`, …). */
  type: string;
  object: object;
  /** The platform id of the message this one replies to. */
  replyTo?: string;
  /** Comes back in the platform's status webhooks: our message id. */
  callbackData: string;
}

/**
 * The body of POST /{version}/{phone_number_id}/messages (docs/platform-requests.md §1): the
 * common envelope, then the kind's object under its `type`. A reaction names its message itself:
 * the platform takes no `context` with it.
 */
export function messageBody(message: OutgoingMessage) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: message.group ? 'group' : 'individual',
    ...(message.group ? { to: message.group } : message.to && { to: message.to }),
    ...(message.recipient && { recipient: message.recipient }),
    biz_opaque_callback_data: message.callbackData,
    ...(message.replyTo && message.type !== 'reaction' && { context: { message_id: message.replyTo } }),
    type: message.type,
    [message.type]: message.object,
  };
}
