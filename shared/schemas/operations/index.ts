/** Every HTTP operation's description by its name in shared/service/operations.ts: for the API document, never for a handler (which imports its own). */
import * as calls from '#shared/schemas/operations/calls';
import * as campaigns from '#shared/schemas/operations/campaigns';
import * as chatGroups from '#shared/schemas/operations/chat-groups';
import * as contacts from '#shared/schemas/operations/contacts';
import * as groups from '#shared/schemas/operations/groups';
import * as keys from '#shared/schemas/operations/keys';
import * as messages from '#shared/schemas/operations/messages';
import * as numbers from '#shared/schemas/operations/numbers';
import * as operator from '#shared/schemas/operations/operator';
import * as platformWebhooks from '#shared/schemas/operations/platform-webhooks';
import * as service from '#shared/schemas/operations/service';
import * as subscriberWebhooks from '#shared/schemas/operations/subscriber-webhooks';
import * as templates from '#shared/schemas/operations/templates';
import * as usage from '#shared/schemas/operations/usage';
import type { HttpDescription } from '#shared/schemas/operations/description';

export const httpDescriptions: Record<string, HttpDescription> = {
  ...service,
  ...keys,
  ...usage,
  ...numbers,
  ...templates,
  ...contacts,
  ...groups,
  ...chatGroups,
  ...calls,
  ...messages,
  ...campaigns,
  ...subscriberWebhooks,
  ...platformWebhooks,
  ...operator,
};
