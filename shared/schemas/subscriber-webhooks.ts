import * as v from 'valibot';
import { droppable, pageParams, uuid } from '#shared/schemas/common';
import { EVENT_TYPES } from '#shared/events/event';

const webhookUrl = () => v.pipe(v.string(), v.maxLength(2048, 'Must be at most 2048 characters'));
/** A non-empty list of known event types, or `["*"]`. */
const webhookEvents = () =>
  v.pipe(
    v.array(v.picklist(['*', ...EVENT_TYPES], `Must be one of ${EVENT_TYPES.join(', ')}, or *`)),
    v.minLength(1, 'At least one event type'),
    v.maxLength(20, 'At most 20 event types'),
  );

/** POST /api/v1/webhooks */
export const createWebhookBody = /* @__PURE__ */ droppable(() => v.object({ url: webhookUrl(), events: webhookEvents() }));

/** PATCH /api/v1/webhooks/{id} */
export const updateWebhookBody = /* @__PURE__ */ droppable(() =>
  v.object({ url: v.optional(webhookUrl()), events: v.optional(webhookEvents()), is_active: v.optional(v.boolean()) }),
);

/** GET /api/v1/webhooks/{id}/deliveries */
export const listDeliveriesQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));

/** POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry */
export const deliveryParams = /* @__PURE__ */ droppable(() => v.object({ id: uuid(), delivery_id: uuid() }));
