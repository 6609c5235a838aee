import { syncTemplates } from '#shared/domain/templates/catalog';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({}, async ({ workspace }) => ok({ synced_count: await syncTemplates(workspace) }));
