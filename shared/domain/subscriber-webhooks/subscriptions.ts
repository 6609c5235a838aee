import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { keys } from '#shared/data/keys';
import { queryAll } from '#shared/data/table/query-all';
import { indexes } from '#shared/data/table/table';
import { transact } from '#shared/data/table/transact';
import { DomainError, errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { checkWebhookUrl, webhookPolicy } from '#shared/subscribers/url-safety';
import { newSigningSecret } from '#shared/subscribers/signing';

/** During a rotation the previous secret keeps signing alongside the new one this long. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export interface Subscription {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  is_active: boolean;
  /** Current secret first; a previous one with the time it stops signing. */
  secrets: { secret: string; until?: string }[];
  /** Set by the first failed delivery after a success; five days of it deactivate the endpoint. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export const subscriptionView = ({ id, url, events, is_active, created_at, updated_at }: Subscription) => ({ id, url, events, is_active, created_at, updated_at });

/** The secrets that sign a delivery now: the current one, and the previous one during its 24 hours. */
export const signingSecrets = (s: Subscription, now = Date.now()) => s.secrets.filter((entry) => !entry.until || Date.parse(entry.until) > now).map((entry) => entry.secret);

export async function requireSafeUrl(url: string): Promise<string> {
  const checked = await checkWebhookUrl(url, webhookPolicy());
  if (!checked.ok) throw errors.validation([{ field: 'url', message: checked.reason }]);
  return checked.url.toString();
}

export async function createSubscription(ws: string, input: { url: string; events: string[] }) {
  const now = nowIso();
  const secret = newSigningSecret();
  const subscription: Subscription = {
    id: newId(),
    workspace_id: ws,
    url: await requireSafeUrl(input.url),
    events: [...new Set(input.events)],
    is_active: true,
    secrets: [{ secret }],
    failing_since: null,
    created_at: now,
    updated_at: now,
  };
  await transact([{ Put: { TableName: tableName(), Item: { ...keys.webhook(ws, subscription.id), ...keys.webhookList(ws, subscription.id), ...subscription }, ConditionExpression: 'attribute_not_exists(PK)' } }]);
  return { ...subscriptionView(subscription), signing_secret: secret };
}

export async function getSubscription(ws: string, id: string): Promise<Subscription | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhook(ws, id), ConsistentRead: true }));
  return Item as Subscription | undefined;
}

export async function requireSubscription(ws: string, id: string): Promise<Subscription> {
  const subscription = await getSubscription(ws, id);
  if (!subscription) throw errors.notFound('Webhook');
  return subscription;
}

/** A workspace's subscriptions are few: one query, newest first. */
export function listSubscriptions(ws: string): Promise<Subscription[]> {
  return queryAll<Subscription>({
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.webhookList(ws).GSI1PK },
    ScanIndexForward: false,
  });
}

async function updateSubscription(ws: string, id: string, set: Record<string, unknown>, condition?: { secret: string }): Promise<Subscription> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhook(ws, id),
        UpdateExpression: `SET ${Object.keys(set).map((name) => `#${name} = :${name}`).join(', ')}`,
        // A rotation only replaces the secret it read, so concurrent rotations cannot hand out a secret that never signs.
        ConditionExpression: condition ? 'attribute_exists(PK) AND secrets[0].secret = :current' : 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.fromEntries(Object.keys(set).map((name) => [`#${name}`, name])),
        ExpressionAttributeValues: { ...Object.fromEntries(Object.entries(set).map(([name, value]) => [`:${name}`, value])), ...(condition && { ':current': condition.secret }) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Subscription;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw errors.notFound('Webhook');
    throw error;
  }
}

export async function patchSubscription(ws: string, id: string, patch: { url?: string; events?: string[]; is_active?: boolean }) {
  const set: Record<string, unknown> = { updated_at: nowIso() };
  if (patch.url !== undefined) set.url = await requireSafeUrl(patch.url);
  if (patch.events !== undefined) set.events = [...new Set(patch.events)];
  if (patch.is_active !== undefined) {
    set.is_active = patch.is_active;
    if (patch.is_active) set.failing_since = null;
  }
  return subscriptionView(await updateSubscription(ws, id, set));
}

/** A new current secret; the old one signs alongside it for 24 hours. */
export async function rotateSecret(ws: string, id: string) {
  const subscription = await requireSubscription(ws, id);
  const secret = newSigningSecret();
  const until = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
  const previous = subscription.secrets[0];
  try {
    await updateSubscription(ws, id, { secrets: [{ secret }, { secret: previous.secret, until }], updated_at: nowIso() }, { secret: previous.secret });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found' && (await getSubscription(ws, id))) throw errors.invalidState('The secret was rotated by another request at the same time; retry');
    throw error;
  }
  return { id, signing_secret: secret, previous_secret_expires_at: until };
}

export async function recordFailing(ws: string, id: string, since: string | null, deactivate: boolean) {
  await updateSubscription(ws, id, { failing_since: since, ...(deactivate && { is_active: false }), updated_at: nowIso() });
}

/** Deletes the subscription; its delivery log goes with it. */
export async function deleteSubscription(ws: string, id: string): Promise<void> {
  try {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.webhook(ws, id), ConditionExpression: 'attribute_exists(PK)' }));
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw errors.notFound('Webhook');
    throw error;
  }
  const log = await queryAll<{ PK: string; SK: string }>({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.webhook(ws, id).PK }, ProjectionExpression: 'PK, SK' });
  await batchWrite(log.map(({ PK, SK }) => ({ DeleteRequest: { Key: { PK, SK } } })));
}
