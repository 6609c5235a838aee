import { GetCommand, PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { countQuery } from '#shared/data/table/count';
import { db, tableName } from '#shared/data/table/client';
import { conditionally } from '#shared/data/table/conditions';
import { subscriptionPartition } from '#shared/data/subscription';
import { queryPage } from '#shared/data/table/pages';
import type { ServiceEvent } from '#shared/events/event';
import { stableId } from '#shared/ids';
import { epochSeconds, nowIso } from '#shared/time';

/** A subscription's delivery log lives in its item collection, newest first (ids are UUIDv7), expiring by TTL. */
const DELIVERY = 'DELIVERY#';
const deliveryKey = (ws: string, webhookId: string, id: string) => ({ PK: subscriptionPartition(ws, webhookId), SK: `${DELIVERY}${id}` });

/** Delivery records expire 30 days after they were created. */
const LOG_TTL_SECONDS = 30 * 24 * 3600;

export interface Delivery {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  /** The exact body posted on every attempt. */
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  /** Set while an attempt is in progress: a duplicated job waits instead of posting alongside. */
  lease_until?: string;
  created_at: string;
  updated_at: string;
}

/** Longer than one attempt can take (15 s time-out plus recording). */
const LEASE_MS = 30_000;

/**
 * The delivery of one event to one subscription. Its id is derived from both, so an event
 * handed over twice creates one delivery; returns it as stored either way.
 */
export async function ensureDelivery(webhookId: string, event: ServiceEvent): Promise<Delivery> {
  const now = nowIso();
  const delivery: Delivery = {
    id: stableId(`${event.id}:${webhookId}`, Date.parse(event.created_at)),
    workspace_id: event.workspace_id,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    body: JSON.stringify(event),
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  };
  const created = await conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...deliveryKey(event.workspace_id, webhookId, delivery.id), ...delivery, expires_at: epochSeconds() + LOG_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    ),
  );
  return created ? delivery : (await getDelivery(event.workspace_id, webhookId, delivery.id))!;
}

export async function getDelivery(ws: string, webhookId: string, id: string): Promise<Delivery | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: deliveryKey(ws, webhookId, id), ConsistentRead: true }));
  return Item as Delivery | undefined;
}

/**
 * Takes attempt number `attempts + 1` with a lease: only one worker wins it, and no other attempt
 * starts while it runs, however often the job is delivered.
 */
export async function claimDeliveryAttempt(delivery: Delivery): Promise<boolean> {
  const now = new Date();
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKey(delivery.workspace_id, delivery.webhook_id, delivery.id),
        UpdateExpression: 'SET attempts = :next, updated_at = :now, lease_until = :lease',
        ConditionExpression: 'attempts = :seen AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': delivery.attempts + 1,
          ':seen': delivery.attempts,
          ':pending': 'pending',
          ':now': now.toISOString(),
          ':lease': new Date(now.getTime() + LEASE_MS).toISOString(),
        },
      }),
    ),
  );
}

/** Writes the delivery's status, last answer and next due time. The attempt is over, so its lease goes: the next job waits only for `next_attempt_at`. */
export async function setDeliveryStatus(
  delivery: Delivery,
  result: Pick<Delivery, 'status' | 'last_status_code' | 'last_error' | 'next_attempt_at'>,
): Promise<void> {
  // Only an existing delivery: one deleted meanwhile (its subscription, its workspace erased) is not written again in part.
  const write = db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: deliveryKey(delivery.workspace_id, delivery.webhook_id, delivery.id),
      ConditionExpression: 'attribute_exists(PK)',
      UpdateExpression: 'SET #status = :status, last_status_code = :code, last_error = :error, next_attempt_at = :next, updated_at = :now REMOVE lease_until',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': result.status,
        ':code': result.last_status_code,
        ':error': result.last_error,
        ':next': result.next_attempt_at,
        ':now': nowIso(),
      },
    }),
  );
  await conditionally(write);
}

/** A page of a subscription's deliveries, newest first, with their exact count. */
export async function deliveriesPage(ws: string, webhookId: string, page: number, pageSize: number): Promise<{ deliveries: Delivery[]; total: number }> {
  const query = {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :delivery)',
    ExpressionAttributeValues: { ':pk': subscriptionPartition(ws, webhookId), ':delivery': DELIVERY },
    ScanIndexForward: false,
  };
  // The log is bounded by its 30-day TTL, so its exact count is a bounded COUNT query of the subscription's own partition.
  const [deliveries, total] = await Promise.all([queryPage<Delivery>(query, page, pageSize), countQuery(query)]);
  return { deliveries, total };
}
