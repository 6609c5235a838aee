/**
 * Every operation of the service, once, as data. The CDK stack turns each entry into a
 * Lambda function with its route, queue or schedule and its grants; the local stack
 * turns the same list into an HTTP server, queue pollers and timers.
 * Adding an operation = one handler file + one entry in its area's list (shared/service/operations/).
 */
import type { Operation } from '#shared/service/operation';
import { apiOperations } from '#shared/service/operations/api';
import { templateOperations } from '#shared/service/operations/templates';
import { audienceOperations } from '#shared/service/operations/audience';
import { chatGroupOperations } from '#shared/service/operations/chat-groups';
import { callOperations } from '#shared/service/operations/calls';
import { messageOperations } from '#shared/service/operations/messages';
import { campaignOperations } from '#shared/service/operations/campaigns';
import { subscriberWebhookOperations } from '#shared/service/operations/subscriber-webhooks';
import { operatorOperations } from '#shared/service/operations/operator';

export const operations: Operation[] = [
  ...apiOperations,
  ...templateOperations,
  ...audienceOperations,
  ...chatGroupOperations,
  ...callOperations,
  ...messageOperations,
  ...campaignOperations,
  ...subscriberWebhookOperations,
  ...operatorOperations,
];
