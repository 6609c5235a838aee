import * as path from 'node:path';
import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Operation } from '#shared/service/operation';

/**
 * The areas of the service, each a stack nested in the compute stack that holds its operations'
 * functions with their routes, triggers and grants. An operation's area follows from the folder of
 * its handler under functions/ (its resource; '' for the handlers at the top of functions/), so
 * shared/service/operations.ts stays the one place an operation is declared; a new folder needs
 * its line here, and synth fails until it has one.
 *
 * Why: every HTTP operation adds about 7 resources (function, role, policy, log group, route,
 * integration, permission), and CloudFormation refuses a stack of more than 500; in one stack the
 * 57 functions already made 382. Split by area, each stack holds under 100 and the compute stack
 * itself only the HTTP API and the nested stacks (a CDK test fails any stack over 400).
 */
export const areas = {
  Api: { folders: ['', 'keys', 'usage', 'numbers'], holds: 'health, the API document, unmatched routes, API keys, usage and business numbers' },
  Messaging: {
    folders: ['messages', 'templates', 'platform-webhooks', 'table-stream'],
    holds: 'messages, templates, platform webhooks and the table stream consumers',
  },
  Audience: { folders: ['contacts', 'groups'], holds: 'contacts and groups' },
  Channels: { folders: ['chat-groups', 'calls'], holds: "WhatsApp groups and calls, through the platform's Groups and Calling APIs" },
  Campaigns: { folders: ['campaigns'], holds: 'campaigns, their fan-out and scheduled starts' },
  Webhooks: { folders: ['subscriber-webhooks'], holds: 'subscriber webhooks, their dispatch and delivery' },
  Operator: { folders: ['admin'], holds: "the operator's API (/admin/v1): workspaces, their keys and numbers" },
} as const satisfies Record<string, { folders: readonly string[]; holds: string }>;

export type Area = keyof typeof areas;

/** The folder of the operation's handler under functions/, as `areas` names it. */
const folderOf = (op: Operation) => path.posix.relative('functions', path.posix.dirname(op.handler));

export function areaOf(op: Operation): Area {
  const folder = folderOf(op);
  const area = (Object.keys(areas) as Area[]).find((name) => (areas[name].folders as readonly string[]).includes(folder));
  if (!area) throw new Error(`${op.name}: no area in lib/areas.ts holds its handler's folder functions/${folder}`);
  return area;
}

/** One area's stack, nested in the compute stack. */
export class AreaStack extends NestedStack {
  constructor(
    scope: Construct,
    readonly area: Area,
  ) {
    super(scope, area, { description: `Messaging API, ${area}: ${areas[area].holds} (functions, routes, triggers, grants)` });
  }
}
