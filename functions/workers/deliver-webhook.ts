import { processDeliveryJob } from '#shared/domain/webhooks/attempt';
import type { DeliveryJob } from '#shared/domain/webhooks/dispatch';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<DeliveryJob>('webhook', processDeliveryJob);
