import { graphRequest, graphUrl } from '#shared/platform/graph-client';

/**
 * `POST /{phone-number-id}/messages` `{ messaging_product, status: "read", message_id }`, with
 * `typing_indicator: { type: "text" }` to show the customer a reply is being written (Meta, "Mark
 * messages as read" and "Typing indicators"; docs/platform-requests.md §12). Answers `{ success: true }`.
 */
export async function markReadOnPlatform(phoneNumberId: string, token: string, providerMessageId: string, typing: boolean): Promise<void> {
  await graphRequest<{ success?: boolean }>(graphUrl(`${encodeURIComponent(phoneNumberId)}/messages`), token, {
    messaging_product: 'whatsapp',
    status: 'read',
    message_id: providerMessageId,
    ...(typing && { typing_indicator: { type: 'text' } }),
  });
}
