import { requireMessage } from '#shared/domain/messages/list';
import { detailView, numbered } from '#shared/domain/messages/message';
import { mediaLink } from '#shared/media/bucket';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';

/** The single-message shape, with a fresh 15-minute link to the media copy once it exists (contract §13). */
export async function messageDetail(workspace: Workspace, id: string) {
  const message = await requireMessage(workspace.id, id);
  const key = message.media?.stored_key;
  return detailView(numbered(message, firstNumberOf(workspace)), key ? await mediaLink(key) : null);
}
