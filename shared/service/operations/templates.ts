/** Message templates, kept in sync with the platform's. */
import { http, type Operation } from '#shared/service/operation';

export const templateOperations: Operation[] = [
  {
    name: 'ListTemplates',
    handler: 'functions/templates/list.ts',
    trigger: http('GET', '/api/v1/templates'),
    // The accounts it holds are its numbers' (shared/domain/numbers/numbers.ts): the first one's details are read once from the platform.
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  {
    name: 'SyncTemplates',
    handler: 'functions/templates/sync.ts',
    trigger: http('POST', '/api/v1/templates/sync'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'CreateTemplate',
    handler: 'functions/templates/create.ts',
    trigger: http('POST', '/api/v1/templates'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'UpdateTemplate',
    handler: 'functions/templates/update.ts',
    trigger: http('PATCH', '/api/v1/templates/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'DeleteTemplate',
    handler: 'functions/templates/delete.ts',
    trigger: http('DELETE', '/api/v1/templates/{id}'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'SyncAllTemplates',
    handler: 'functions/templates/sync-all.ts',
    trigger: { type: 'schedule', everyMinutes: 15 },
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 300,
  },
];
