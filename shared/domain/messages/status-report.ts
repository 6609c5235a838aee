import { messageByPlatformId } from '#shared/data/message';
import { recordPlayed } from '#shared/data/message-status';
import { applyReport } from '#shared/domain/messages/status';
import type { Workspace } from '#shared/records/workspace';
import { logger } from '#shared/logger';
import type { PlatformStatus } from '#shared/platform/webhook-statuses';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our message a report is about: our id in `biz_opaque_callback_data`, else the platform id it was sent under. */
async function messageIdOf(workspace: Workspace, status: PlatformStatus): Promise<string | undefined> {
  if (status.callbackData && UUID.test(status.callbackData)) return status.callbackData;
  return (await messageByPlatformId(workspace.id, status.providerMessageId))?.id;
}

/** A platform status report: moves the message forward (contract §5), mostly without reading it first (applyReport); `played` (voice notes) is recorded beside the status. */
export async function recordStatusReport(workspace: Workspace, status: PlatformStatus): Promise<void> {
  const id = await messageIdOf(workspace, status);
  if (!id) {
    logger.warn('Status report for no known message', { providerMessageId: status.providerMessageId });
    return;
  }
  if (status.status === 'played') return recordPlayed(workspace.id, id, status.at);
  await applyReport(
    workspace.id,
    id,
    { status: status.status, at: status.at, providerMessageId: status.providerMessageId, error: status.error, pricing: status.pricing },
    status.recipientPhone,
  );
}
