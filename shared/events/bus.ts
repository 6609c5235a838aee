import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { perEndpoint, serviceClientConfig, withoutSdkLogger } from '#shared/aws/clients';
import { env } from '#shared/config';
import { EVENT_SOURCE, type ServiceEvent } from '#shared/events/event';

const bus = perEndpoint(
  () => env.eventBridgeEndpoint,
  (endpoint) => withoutSdkLogger(new EventBridgeClient(serviceClientConfig(endpoint))),
);

/** Puts events on the service's bus in batches of ten; throws if any entry was refused, so the caller retries (event ids are stable). */
export async function publish(events: ServiceEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += 10) {
    const entries = events.slice(start, start + 10).map((event) => ({
      EventBusName: env.eventBusName,
      Source: EVENT_SOURCE,
      DetailType: event.type,
      Detail: JSON.stringify(event),
      Time: new Date(event.created_at),
    }));
    const { FailedEntryCount, Entries } = await bus().send(new PutEventsCommand({ Entries: entries }));
    if (FailedEntryCount) throw new Error(`EventBridge refused ${FailedEntryCount} events: ${Entries?.find((e) => e.ErrorCode)?.ErrorMessage}`);
  }
}
