/** The API's own routes (health, its document and reference, unmatched routes), API keys, usage and business numbers. */
import { http, type Operation } from '#shared/service/operation';

/** The API reference's renderer (Redoc's self-contained browser build), served by the deployment itself. */
export const REDOC_SCRIPT = 'redoc/bundles/redoc.standalone.js';

export const apiOperations: Operation[] = [
  { name: 'Health', handler: 'functions/health.ts', trigger: http('GET', '/health'), access: {} },
  { name: 'OpenApi', handler: 'functions/openapi.ts', trigger: http('GET', '/api/v1/openapi.json'), access: {} },
  { name: 'ApiReference', handler: 'functions/api-reference.ts', trigger: http('GET', '/docs'), access: {} },
  {
    name: 'ApiReferenceScript',
    handler: 'functions/api-reference-script.ts',
    trigger: http('GET', '/docs/redoc.standalone.js'),
    access: {},
    packageFiles: [REDOC_SCRIPT],
  },
  { name: 'RouteNotFound', handler: 'functions/route-not-found.ts', trigger: { type: 'httpDefault' }, access: {} },

  { name: 'ListKeys', handler: 'functions/keys/list.ts', trigger: http('GET', '/api/v1/keys'), access: { table: 'readWrite' } },
  { name: 'CreateKey', handler: 'functions/keys/create.ts', trigger: http('POST', '/api/v1/keys'), access: { table: 'readWrite' } },
  { name: 'RevokeKey', handler: 'functions/keys/revoke.ts', trigger: http('DELETE', '/api/v1/keys'), access: { table: 'readWrite' } },

  { name: 'GetUsage', handler: 'functions/usage/get.ts', trigger: http('GET', '/api/v1/usage'), access: { table: 'readWrite' } },

  {
    name: 'ListNumbers',
    handler: 'functions/numbers/list.ts',
    trigger: http('GET', '/api/v1/numbers'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'ConnectNumber',
    handler: 'functions/numbers/connect.ts',
    trigger: http('POST', '/api/v1/numbers'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'UpdateNumber',
    handler: 'functions/numbers/update.ts',
    trigger: http('PATCH', '/api/v1/numbers/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'DisconnectNumber',
    handler: 'functions/numbers/disconnect.ts',
    trigger: http('DELETE', '/api/v1/numbers/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
];
