import type { DynamoDBStreamEvent } from 'aws-lambda';
import { publish } from '#shared/events/bus';
import { eventsFromRecord } from '#shared/domain/outbox/events';
import { countMessages } from '#shared/domain/outbox/counts';
import { withMetrics } from '#shared/metrics';

/**
 * Every change that has an event type reaches the bus: the events are read from the table's
 * stream, so a write whose process died right after it is still published. The same batches
 * move the message counts (see countMessages). A failed batch is retried whole; event ids are
 * stable, so a repeat is recognised downstream, and counts are marked per batch.
 */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => {
  await Promise.all([countMessages(event.Records), (async () => publish((await Promise.all(event.Records.map(eventsFromRecord))).flat()))()]);
});
