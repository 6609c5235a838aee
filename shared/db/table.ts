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

/** Each global secondary index is named after the access pattern it serves. */
export const indexes = {
  /** Children of a parent, newest first: keys, contacts, tags, groups, members, campaigns, webhooks, deliveries, messages. */
  byParent: { indexName: 'byParent', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
  /** A second way into the same records: a number's conversation (messages by phone), newest first. */
  byAlternateKey: { indexName: 'byAlternateKey', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
} as const;

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
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
