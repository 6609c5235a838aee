import type { PutEventsResponse } from '@aws-sdk/client-eventbridge';
import { AwsJsonClient, perEndpoint } from '#shared/aws/json-protocol';
import { env } from '#shared/config';
import { EVENT_SOURCE, type ServiceEvent } from '#shared/events/event';

const EVENTBRIDGE = { signingName: 'events', targetPrefix: 'AWSEvents', jsonVersion: '1.1', serviceId: 'EventBridge' } as const;

const bus = perEndpoint(
  () => env.eventBridgeEndpoint,
  (endpoint) => new AwsJsonClient(EVENTBRIDGE, endpoint),
);

/** Puts events on the service's bus in batches of ten; throws if any entry was refused, so the caller retries (event ids are stable). */
export async function publish(events: ServiceEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += 10) {
    const entries = events.slice(start, start + 10).map((event) => ({
      EventBusName: env.eventBusName,
      Source: EVENT_SOURCE,
      DetailType: event.type,
      Detail: JSON.stringify(event),
      // The JSON protocol's timestamps: seconds since the epoch.
      Time: Date.parse(event.created_at) / 1000,
    }));
    const { FailedEntryCount, Entries } = await bus().call<PutEventsResponse>('PutEvents', { Entries: entries });
    if (FailedEntryCount) throw new Error(`EventBridge refused ${FailedEntryCount} events: ${Entries?.find((e) => e.ErrorCode)?.ErrorMessage}`);
  }
}
