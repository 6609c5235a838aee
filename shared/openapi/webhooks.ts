/**
 * The document's OpenAPI 3.1 `webhooks`: one per event type, the POST the service makes to a
 * subscribed endpoint, with its Standard Webhooks headers and its body (shared/schemas/events).
 */
import type * as v from 'valibot';
import { EVENT_TYPES, type EventType } from '#shared/events/event';
import { EVENTS, eventEnvelope } from '#shared/schemas/events';
import { ref, type Json } from '#shared/openapi/responses';

export const EVENTS_TAG = { name: 'Events', description: 'What the service posts to your subscribed endpoints: one webhook per event type' };

/** `message.received` is the component `MessageReceivedEvent`. */
const componentName = (type: EventType) => `${type.replace(/(^|[._])([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Event`;

/** Each event type's body, by component name. */
export const eventComponents = (): Record<string, v.GenericSchema> => Object.fromEntries(EVENT_TYPES.map((type) => [componentName(type), eventEnvelope(type)]));

export const WEBHOOK_PARAMETERS: Record<string, Json> = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`id` in the body): the same on every retry, so a receiver drops repeats',
    schema: { type: 'string', format: 'uuid' },
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse one too far from your clock (Standard Webhooks libraries allow 5 minutes)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")), the key being the base64-decoded part of the signing secret after `whsec_`. During a secret rotation, two signatures separated by a space: either verifies.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$' },
  },
};

function webhook(type: EventType): Json {
  return {
    post: {
      operationId: componentName(type),
      tags: [EVENTS_TAG.name],
      summary: `${type}: ${EVENTS[type].summary}`,
      description:
        'Posted to every active subscription whose `events` include this type or `*`, at least once, in no particular order. Verify the signature on the raw body before parsing it.',
      // The receiver authenticates the service by the signature headers, not by a scheme of ours.
      security: [],
      parameters: Object.keys(WEBHOOK_PARAMETERS).map((name) => ref('parameters', name)),
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', componentName(type)) } } },
      responses: {
        '200': { description: 'Any 2xx within 15 seconds acknowledges the event. Anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.' },
        '410': { description: 'Gone: the subscription is deactivated at once and nothing is retried' },
        '429': {
          description: 'With `Retry-After` (as for 502 and 504), the next attempt waits at least that long',
          headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } },
        },
      },
    },
  };
}

export const buildWebhooks = (): Json => Object.fromEntries(EVENT_TYPES.map((type) => [type, webhook(type)]));
