import * as v from 'valibot';
import { EVENT_TYPES } from '#shared/events/event';

const SUBSCRIBABLE = EVENT_TYPES.filter((type) => type !== 'ping');

export const webhookUrl = v.pipe(v.string(), v.maxLength(2048, 'Must be at most 2048 characters'));
/** A non-empty list of known event types, or `["*"]`. */
export const webhookEvents = v.pipe(
  v.array(v.picklist(['*', ...SUBSCRIBABLE], `Must be one of ${SUBSCRIBABLE.join(', ')}, or *`)),
  v.minLength(1, 'At least one event type'),
  v.maxLength(20, 'At most 20 event types'),
);
