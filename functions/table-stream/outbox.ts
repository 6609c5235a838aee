import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runFollowUps } from '#shared/domain/outbox/follow-ups';
import { countMessages } from '#shared/domain/outbox/counts';

/**
 * The table's stream as the outbox (see runFollowUps) and as the source of the message counts
 * (see countMessages). A failed batch is retried whole, then reported to the stream-failure queue.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await Promise.all([countMessages(event.Records), runFollowUps(event.Records)]);
};
