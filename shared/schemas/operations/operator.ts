import {
  createWorkspaceBody,
  numberThroughputBody,
  numberThroughputParams,
  operatorKeyBody,
  onboardingBody,
  operatorNumberBody,
  rateCardBody,
  updateWorkspaceBody,
  workspaceParams,
} from '#shared/schemas/operator';
import type { OperatorOperation } from '#shared/schemas/operations/description';

export const CreateWorkspace = {
  tag: 'Operator: workspaces',
  summary: 'Create a workspace',
  description:
    'With its first API key, whose secret is shown only here, and its first business number when both `phone_number_id` and `waba_id` are given (its templates are then synced at once when the platform answers). Without a number, onboarding (`POST /admin/v1/workspaces/{id}/onboarding`) or connecting one gives it its first; until then it sends nothing (422 `unknown_number`).',
  auth: 'operator',
  request: { body: createWorkspaceBody },
  success: [{ status: 201, data: 'openedWorkspace' }],
  errors: ['number_in_use', 'account_in_use', 'number_not_in_account', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies OperatorOperation;

export const ListWorkspaces = {
  tag: 'Operator: workspaces',
  summary: 'List every workspace',
  description: 'Oldest first.',
  auth: 'operator',
  request: {},
  success: [{ status: 200, data: 'operatorWorkspace', list: 'all' }],
} satisfies OperatorOperation;

export const GetWorkspace = {
  tag: 'Operator: workspaces',
  summary: 'Get a workspace',
  auth: 'operator',
  request: { params: workspaceParams },
  success: [{ status: 200, data: 'operatorWorkspace' }],
  errors: ['not_found'],
} satisfies OperatorOperation;

export const UpdateWorkspace = {
  tag: 'Operator: workspaces',
  summary: 'Change a workspace’s plan, rate limit, stop words or suspension',
  description:
    'Only the fields sent change. Suspended: its keys get 403 `workspace_suspended`, its queued sends and running campaigns wait, inbound messages and status reports are still stored; unsuspended, the sends go.',
  auth: 'operator',
  request: { params: workspaceParams, body: updateWorkspaceBody },
  success: [{ status: 200, data: 'operatorWorkspace' }],
  errors: ['not_found', 'invalid_state'],
} satisfies OperatorOperation;

export const DeleteWorkspace = {
  tag: 'Operator: workspaces',
  summary: 'Erase a workspace',
  description:
    'Answers at once; the erasure runs in the background: every record of the workspace, its media objects, schedules and secret; its numbers become free. Until it ends the workspace shows `status: deleting` and its progress (`erasure`), its keys get 401, and then it is gone (404). Asked again while it runs, the erasure goes on from where it is.',
  auth: 'operator',
  request: { params: workspaceParams },
  success: [{ status: 202, data: 'operatorWorkspace' }],
  errors: ['not_found'],
} satisfies OperatorOperation;

export const CreateWorkspaceKey = {
  tag: 'Operator: workspaces',
  summary: 'Create an API key for a workspace',
  description: 'The answer carries the secret, shown only here.',
  auth: 'operator',
  request: { params: workspaceParams, body: operatorKeyBody },
  success: [{ status: 201, data: 'createdApiKey' }],
  errors: ['not_found', 'invalid_state'],
} satisfies OperatorOperation;

export const ListWorkspaceNumbers = {
  tag: 'Operator: numbers',
  summary: "List a workspace's business numbers",
  description: 'As the workspace sees them with GET /api/v1/numbers.',
  auth: 'operator',
  request: { params: workspaceParams },
  success: [{ status: 200, data: 'businessNumber', list: 'all' }],
  errors: ['not_found', 'invalid_state'],
} satisfies OperatorOperation;

export const ConnectWorkspaceNumber = {
  tag: 'Operator: numbers',
  summary: 'Connect a business number to a workspace',
  description:
    "As POST /api/v1/numbers does for the workspace (contract §17, §22), with the workspace's own token or else the deployment's shared one: the account is connected by the operator.",
  auth: 'operator',
  request: { params: workspaceParams, body: operatorNumberBody },
  success: [{ status: 201, data: 'businessNumber' }],
  errors: ['not_found', 'number_in_use', 'account_in_use', 'number_not_in_account', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies OperatorOperation;

export const OnboardWorkspace = {
  tag: 'Operator: workspaces',
  summary: 'Onboard a business through Embedded Signup',
  description:
    "Exchanges the code for the business's token (kept in the workspace's secret: never stored in the table, returned or logged), claims the business account for the workspace (its number listed in it, no other workspace holding it), registers the number for the Cloud API, subscribes the app to the business account's webhooks, connects the number and syncs its templates. Each step is recorded in `onboarding`; a failed step answers `platform_error` (422 refused, 502 no answer) with `details` naming the `step` first, then the platform's code and message; repeating the request resumes after the last step that succeeded. The number is usable only once connected.",
  auth: 'operator',
  request: { params: workspaceParams, body: onboardingBody },
  success: [{ status: 200, data: 'operatorWorkspace' }],
  errors: ['not_found', 'number_in_use', 'account_in_use', 'number_not_in_account', 'invalid_state', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies OperatorOperation;

export const SetNumberThroughput = {
  tag: 'Operator: numbers',
  summary: "Set a number's throughput",
  description: 'The messages per second the platform granted the number, which the service paces its sends to. Numbers are unique across workspaces.',
  auth: 'operator',
  request: { params: numberThroughputParams, body: numberThroughputBody },
  success: [{ status: 200, data: 'numberThroughput' }],
  errors: ['not_found'],
} satisfies OperatorOperation;

export const SetWorkspaceRateCard = {
  tag: 'Operator: workspaces',
  summary: "Set a workspace's rate card",
  description:
    "Replaces the workspace's own card (contract §20) whole: its messages are priced by it from the next status report (within a minute everywhere); costs already recorded stay. Answers the card, `source: workspace`.",
  auth: 'operator',
  request: { params: workspaceParams, body: rateCardBody },
  success: [{ status: 200, data: 'workspaceRateCard' }],
  errors: ['not_found'],
} satisfies OperatorOperation;

export const GetWorkspaceRateCard = {
  tag: 'Operator: workspaces',
  summary: "Get a workspace's rate card",
  description: "The card its messages are priced by: its own (`source: workspace`), else the deployment's default card (`source: default`).",
  auth: 'operator',
  request: { params: workspaceParams },
  success: [{ status: 200, data: 'workspaceRateCard' }],
  errors: ['not_found'],
} satisfies OperatorOperation;
