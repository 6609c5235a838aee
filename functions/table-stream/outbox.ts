import type { DynamoDBStreamEvent } from 'aws-lambda';
import { runFollowUps } from '#shared/domain/outbox/follow-ups';
import { withMetrics } from '#shared/metrics';

/** The table's stream as the outbox (see runFollowUps). A failed batch is retried whole, then reported to the stream-failure queue. */
export const handler = withMetrics(async (event: DynamoDBStreamEvent): Promise<void> => runFollowUps(event.Records));
