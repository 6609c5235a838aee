/** The operator's API (contract §19). */
import type { Access, HttpMethod, Operation, Trigger } from '#shared/service/operation';

const operatorRoute = (method: HttpMethod, path: string): Trigger => ({ type: 'http', method, path, operator: true });
/** Workspaces' numbers are read from (and connected on) the platform; their templates synced. */
const onPlatform: Access = { table: 'readWrite', platformSecrets: true, graphApi: true };

export const operatorOperations: Operation[] = [
  {
    name: 'CreateWorkspace',
    handler: 'functions/admin/create-workspace.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  {
    name: 'ListWorkspaces',
    handler: 'functions/admin/list-workspaces.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  { name: 'GetWorkspace', handler: 'functions/admin/get-workspace.ts', trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}'), access: onPlatform },
  { name: 'UpdateWorkspace', handler: 'functions/admin/update-workspace.ts', trigger: operatorRoute('PATCH', '/admin/v1/workspaces/{id}'), access: onPlatform },
  {
    name: 'CreateWorkspaceKey',
    handler: 'functions/admin/create-key.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/keys'),
    access: { table: 'readWrite' },
  },
  {
    name: 'ListWorkspaceNumbers',
    handler: 'functions/admin/list-numbers.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}/numbers'),
    access: onPlatform,
  },
  {
    name: 'ConnectWorkspaceNumber',
    handler: 'functions/admin/connect-number.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/numbers'),
    access: onPlatform,
    timeoutSeconds: 29,
  },
  {
    name: 'OnboardWorkspace',
    handler: 'functions/admin/onboard.ts',
    trigger: operatorRoute('POST', '/admin/v1/workspaces/{id}/onboarding'),
    access: { ...onPlatform, workspaceSecrets: 'readWrite' },
    timeoutSeconds: 29,
  },
  {
    name: 'DeleteWorkspace',
    handler: 'functions/admin/delete-workspace.ts',
    trigger: operatorRoute('DELETE', '/admin/v1/workspaces/{id}'),
    access: { table: 'readWrite', queues: ['erasure'] },
  },
  {
    name: 'EraseWorkspace',
    handler: 'functions/admin/erasure-worker.ts',
    trigger: { type: 'queue', queue: 'erasure', batchSize: 1 },
    access: { table: 'readWrite', queues: ['erasure'], erasure: true },
    timeoutSeconds: 300,
  },
  {
    name: 'SetWorkspaceRateCard',
    handler: 'functions/admin/set-rate-card.ts',
    trigger: operatorRoute('PUT', '/admin/v1/workspaces/{id}/rate-card'),
    access: { table: 'readWrite' },
  },
  {
    name: 'GetWorkspaceRateCard',
    handler: 'functions/admin/get-rate-card.ts',
    trigger: operatorRoute('GET', '/admin/v1/workspaces/{id}/rate-card'),
    access: { table: 'read' },
  },
  {
    name: 'SetNumberThroughput',
    handler: 'functions/admin/set-number-throughput.ts',
    trigger: operatorRoute('PATCH', '/admin/v1/numbers/{id}'),
    access: { table: 'readWrite' },
  },
];
