import type { EventBridgeEvent } from 'aws-lambda';
import type { ServiceEvent } from '#shared/events/event';
import { dispatchEvent } from '#shared/domain/subscriber-webhooks/dispatch';
import { withMetrics } from '#shared/metrics';

/** Each service event from the bus becomes one delivery per matching subscription. Errors throw: EventBridge retries the event. */
export const handler = withMetrics(
  async (event: EventBridgeEvent<string, ServiceEvent>): Promise<{ queued: number }> => ({ queued: await dispatchEvent(event.detail) }),
);
