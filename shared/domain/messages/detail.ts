import { requireMessage } from '#shared/domain/messages/list';
import { detailView } from '#shared/domain/messages/message';
import { mediaLink } from '#shared/media/bucket';

/** The single-message shape, with a fresh 15-minute link to the media copy once it exists (contract §13). */
export async function messageDetail(ws: string, id: string) {
  const message = await requireMessage(ws, id);
  const key = message.media?.stored_key;
  return detailView(message, key ? await mediaLink(key) : null);
}
