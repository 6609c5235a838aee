import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { awsClientConfig } from '#local/sdk-client-config';
import { ensureTable } from '#local/dynamodb';
import { createTableInput } from '#shared/data/table/table';

describe('ensureTable on the local DynamoDB', () => {
  const endpoint = () => process.env.DYNAMODB_ENDPOINT!;

  test('creates the table, and accepts it as it is the next time', async () => {
    const name = `ensure-${randomUUID()}`;
    await ensureTable(endpoint(), name);
    await expect(ensureTable(endpoint(), name)).resolves.toBeUndefined();
  });

  test('refuses a table of an older data model, naming the indexes that differ', async () => {
    const name = `ensure-${randomUUID()}`;
    const current = createTableInput(name);
    // The model before the message indexes: a second index projecting every attribute.
    const older = {
      ...current,
      GlobalSecondaryIndexes: [
        current.GlobalSecondaryIndexes![0],
        {
          IndexName: 'byAlternateKey',
          KeySchema: [
            { AttributeName: 'GSI2PK', KeyType: 'HASH' as const },
            { AttributeName: 'GSI2SK', KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        },
      ],
      AttributeDefinitions: current.AttributeDefinitions!.filter((a) => !a.AttributeName!.startsWith('GSI3')),
    };
    const client = new DynamoDBClient(awsClientConfig(endpoint()));
    await client.send(new CreateTableCommand(older));
    client.destroy();
    await expect(ensureTable(endpoint(), name)).rejects.toThrow(
      /byAlternateKey\(ALL\).*this version expects.*messageHistory\(INCLUDE: campaign_id, direction\).*Remove the local data folder/,
    );
  });
});
