import { recordInbound } from '#shared/domain/messages/inbound';
import { applyStatus } from '#shared/domain/messages/status';
import { findWorkspaceByPhoneNumberId } from '#shared/domain/workspaces';
import { logger } from '#shared/logger';
import { readWebhook } from '#shared/platform/webhook-payload';
import { sqsJobHandler } from '#shared/sqs-worker';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One platform webhook: status reports (matched by our id in biz_opaque_callback_data) and customer messages. */
async function processOne(payload: unknown): Promise<void> {
  const { statuses, messages } = readWebhook(payload);
  for (const status of statuses) {
    const workspace = await findWorkspaceByPhoneNumberId(status.phoneNumberId);
    if (!workspace || !status.callbackData || !UUID.test(status.callbackData)) {
      logger.warn('Status report for no known message', { providerMessageId: status.providerMessageId });
      continue;
    }
    await applyStatus(workspace.id, status.callbackData, { status: status.status, at: status.at, providerMessageId: status.providerMessageId, error: status.error });
  }
  for (const message of messages) {
    const workspace = await findWorkspaceByPhoneNumberId(message.phoneNumberId);
    if (!workspace) {
      logger.warn('Inbound message for an unknown number', { phoneNumberId: message.phoneNumberId });
      continue;
    }
    await recordInbound(workspace.id, message);
  }
}

export const handler = sqsJobHandler<unknown>('inbound', processOne);
