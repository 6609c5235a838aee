import { itemSize, transactionWriteUnits } from '#local/transaction-capacity';

const message = {
  PK: 'WS#w#MSG#m',
  SK: 'MESSAGE',
  GSI3PK: 'WS#w#MESSAGES#3',
  GSI3SK: 'm',
  GSI2PK: 'WS#w#PHONE_MESSAGES#1415',
  GSI2SK: 'm',
  status: 'queued',
  direction: 'outbound',
  campaign_id: null,
};
const contact = { PK: 'WS#w#CONTACT#c', SK: 'CONTACT', GSI1PK: 'WS#w#CONTACTS', GSI1SK: 'c', name: 'Ann' };
const stored = new Map<string, Record<string, unknown>>([message, contact].map((item) => [`${item.PK}|${item.SK}`, item]));
const read = async (key: Record<string, unknown>) => stored.get(`${key.PK}|${key.SK}`);

describe('transaction pricing for the bench usage meter', () => {
  test('item size follows DynamoDB: names and UTF-8 values, numbers by digits', () => {
    expect(itemSize({ ab: 'xyz' })).toBe(5);
    expect(itemSize({ n: 12345 })).toBe(1 + 4);
    expect(itemSize({ é: 'é' })).toBe(4);
  });

  test('a put costs 2 units for the item and 2 for each index entry it creates', async () => {
    expect(await transactionWriteUnits([{ Put: { Item: message } }], read)).toEqual({ table: 2, byIndex: { messageHistory: 2, conversation: 2 } });
  });

  test('an update of attributes the message indexes do not project writes the item alone', async () => {
    const update = {
      Update: {
        Key: { PK: { S: message.PK }, SK: { S: message.SK } },
        UpdateExpression: 'SET #status = :to REMOVE claim',
        ExpressionAttributeNames: { '#status': 'status' },
      },
    };
    expect(await transactionWriteUnits([update], read)).toEqual({ table: 2, byIndex: {} });
  });

  test('an update of an item in an index that projects everything rewrites its entry', async () => {
    const update = { Update: { Key: { PK: contact.PK, SK: contact.SK }, UpdateExpression: 'SET #n = :name', ExpressionAttributeNames: { '#n': 'name' } } };
    expect(await transactionWriteUnits([update], read)).toEqual({ table: 2, byIndex: { byParent: 2 } });
  });

  test('every started KB of an item costs 2 more units', async () => {
    stored.set('BIG|X', { PK: 'BIG', SK: 'X', body: 'x'.repeat(1500) });
    expect((await transactionWriteUnits([{ Update: { Key: { PK: 'BIG', SK: 'X' }, UpdateExpression: 'SET body = :b' } }], read)).table).toBe(4);
  });
});
