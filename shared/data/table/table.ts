import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's shape, read by the CDK stack and by the local stack / tests,
 * so the indexes the code queries are the indexes the infrastructure creates.
 */
export const table = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expires_at',
} as const;

/**
 * Attributes of a message that never change, projected into the message indexes. Nothing a
 * message's life changes (status, timestamps, claim) is projected, so a status change writes
 * the message item alone, not its two index entries: most of a message's write capacity
 * otherwise (docs/performance.md). Lists read the items themselves by key.
 */
const MESSAGE_INDEX_ATTRIBUTES = ['direction', 'campaign_id'];

/** Each global secondary index is named after the access pattern it serves. */
export const indexes = {
  /** Children of a parent, newest first: keys, contacts, tags, groups, members, campaigns, webhooks, deliveries, a campaign's messages held for its send window. */
  byParent: { indexName: 'byParent', partitionKey: 'GSI1PK', sortKey: 'GSI1SK', projectedAttributes: 'ALL' },
  /** A workspace's messages, newest first, over MESSAGE_SHARDS partitions. */
  messageHistory: { indexName: 'messageHistory', partitionKey: 'GSI3PK', sortKey: 'GSI3SK', projectedAttributes: MESSAGE_INDEX_ATTRIBUTES },
  /** One number's conversation, newest first: the `phone` filter. */
  conversation: { indexName: 'conversation', partitionKey: 'GSI2PK', sortKey: 'GSI2SK', projectedAttributes: MESSAGE_INDEX_ATTRIBUTES },
} as const satisfies Record<string, { indexName: string; partitionKey: string; sortKey: string; projectedAttributes: 'ALL' | string[] }>;

export type IndexName = keyof typeof indexes;

/** CreateTable input for DynamoDB Local (tests and `npm start`); the cloud table is built from the same constants in CDK. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = [table.partitionKey, table.sortKey, ...Object.values(indexes).flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    // The stream is the outbox: send jobs and events are derived from it (docs/messaging.md).
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      { AttributeName: table.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.values(indexes).map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection:
        index.projectedAttributes === 'ALL' ? { ProjectionType: 'ALL' } : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projectedAttributes] },
    })),
  };
}
