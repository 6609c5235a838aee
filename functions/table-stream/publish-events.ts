import type { DynamoDBStreamEvent } from 'aws-lambda';
import { publish } from '#shared/events/bus';
import { eventsFromRecord } from '#shared/events/from-stream';

/**
 * Every change that has an event type reaches the bus: the events are read from the table's
 * stream, so a write whose process died right after it is still published. A failed batch is
 * retried whole; event ids are stable, so a repeat is recognised downstream.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await publish(event.Records.flatMap(eventsFromRecord));
};
