import { deliveriesPage, setDeliveryStatus, type Delivery } from '#shared/data/delivery';
import { pagination } from '#shared/pagination';
import { nowIso } from '#shared/time';

export { claimDeliveryAttempt, ensureDelivery, getDelivery, setDeliveryStatus, type Delivery } from '#shared/data/delivery';

export const deliveryView = ({ id, event_id, event_type, status, attempts, last_status_code, last_error, next_attempt_at, created_at }: Delivery) => ({
  id,
  event_id,
  event_type,
  status,
  attempts,
  last_status_code,
  last_error,
  next_attempt_at,
  created_at,
});

/** A manual retry: the delivery is pending again, due now; its attempts keep counting. */
export async function reopenDelivery(delivery: Delivery): Promise<Delivery> {
  const now = nowIso();
  await setDeliveryStatus(delivery, { status: 'pending', last_status_code: delivery.last_status_code, last_error: delivery.last_error, next_attempt_at: now });
  return { ...delivery, status: 'pending', next_attempt_at: now };
}

export async function listDeliveries(ws: string, webhookId: string, page: number, pageSize: number) {
  const { deliveries, total } = await deliveriesPage(ws, webhookId, page, pageSize);
  return { data: deliveries.map(deliveryView), pagination: pagination(page, pageSize, total) };
}
