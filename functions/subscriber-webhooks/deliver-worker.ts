import { processDeliveryJob } from '#shared/domain/subscriber-webhooks/attempt';
import type { DeliveryJob } from '#shared/domain/subscriber-webhooks/dispatch';
import { sqsJobHandler } from '#shared/sqs-worker';

export const handler = sqsJobHandler<DeliveryJob>('webhook', processDeliveryJob);
