import { UpdateCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { dayCountNames, dayOf, windowNames, rateWindowKey } from '#shared/data/rate-window';

/**
 * Gives back a place taken for a request that turned out not to be the workspace's (its key was
 * revoked meanwhile), and its count when it was counted. Once its second has passed, only the
 * count is given back, while its day's counts are still on the window item.
 */
export async function releasePlace(ws: string, second: number, counted: boolean): Promise<void> {
  const release = (update: { UpdateExpression: string; ConditionExpression: string; names: Record<string, string>; values: Record<string, unknown> }) =>
    db()
      .send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rateWindowKey(ws),
          UpdateExpression: update.UpdateExpression,
          ConditionExpression: update.ConditionExpression,
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0, ...update.values },
        }),
      )
      .then(
        () => true,
        (error: unknown) => {
          if ((error as Error | undefined)?.name !== 'ConditionalCheckFailedException') throw error;
          return false;
        },
      );
  const dayRequests = { '#dayRequests': dayCountNames['#dayRequests'] };
  const released = await release({
    UpdateExpression: counted ? 'ADD #admitted :minusOne, #dayRequests :minusOne' : 'ADD #admitted :minusOne',
    ConditionExpression: '#second = :second AND #admitted > :zero',
    names: { '#second': windowNames['#second'], '#admitted': windowNames['#admitted'], ...(counted && dayRequests) },
    values: { ':second': second },
  });
  if (released || !counted) return;
  await release({
    UpdateExpression: 'ADD #dayRequests :minusOne',
    ConditionExpression: '#day = :day AND #dayRequests > :zero',
    names: { '#day': dayCountNames['#day'], ...dayRequests },
    values: { ':day': dayOf(second) },
  });
}
