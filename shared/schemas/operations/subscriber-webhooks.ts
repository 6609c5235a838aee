import { createWebhookBody, deliveryParams, listDeliveriesQuery, updateWebhookBody } from '#shared/schemas/subscriber-webhooks';
import { idParams } from '#shared/schemas/common';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const CreateWebhook = {
  tag: 'Webhooks',
  summary: 'Subscribe an endpoint to events',
  description:
    'The URL must be public `https://` (a deployment setting may allow `http://` and loopback for local development). The answer carries the signing secret, shown only here.',
  auth: 'apiKey',
  request: { body: createWebhookBody },
  bodyExample: { url: 'https://example.com/hooks/whatsapp', events: ['message.read', 'message.failed', 'campaign.completed'] },
  success: [{ status: 201, data: 'createdWebhook' }],
} satisfies ApiKeyOperation;

export const ListWebhooks = {
  tag: 'Webhooks',
  summary: "List the workspace's subscriptions, newest first",
  auth: 'apiKey',
  request: {},
  success: [{ status: 200, data: 'webhook', list: 'all' }],
} satisfies ApiKeyOperation;

export const GetWebhook = {
  tag: 'Webhooks',
  summary: 'Get a subscription',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'webhook' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const UpdateWebhook = {
  tag: 'Webhooks',
  summary: 'Change the URL, events or activity of a subscription',
  auth: 'apiKey',
  request: { params: idParams, body: updateWebhookBody },
  success: [{ status: 200, data: 'webhook' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const DeleteWebhook = {
  tag: 'Webhooks',
  summary: 'Delete a subscription and its delivery log',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'deletion' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const TestWebhook = {
  tag: 'Webhooks',
  summary: 'Send a ping to the endpoint now',
  description: 'Answers with the outcome; the ping is logged (and retried if it failed) like any delivery.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'webhookTestResult' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const RotateWebhookSecret = {
  tag: 'Webhooks',
  summary: 'Rotate the signing secret',
  description: 'The previous secret keeps signing alongside the new one for 24 hours.',
  auth: 'apiKey',
  request: { params: idParams },
  success: [{ status: 200, data: 'webhookSecretRotation' }],
  errors: ['not_found', 'invalid_state'],
} satisfies ApiKeyOperation;

export const ListWebhookDeliveries = {
  tag: 'Webhooks',
  summary: "A subscription's delivery log, newest first",
  auth: 'apiKey',
  request: { params: idParams, query: listDeliveriesQuery },
  success: [{ status: 200, data: 'webhookDelivery', list: 'pages' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;

export const RetryWebhookDelivery = {
  tag: 'Webhooks',
  summary: 'Deliver again now',
  description: 'The delivery is pending again and attempted right after this answer; its attempts keep counting.',
  auth: 'apiKey',
  request: { params: deliveryParams },
  success: [{ status: 202, data: 'webhookDelivery' }],
  errors: ['not_found'],
} satisfies ApiKeyOperation;
