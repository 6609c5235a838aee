import { syncAllAccounts } from '#shared/domain/templates/catalog';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { SyncTemplates } from '#shared/schemas/operations/templates';

export const handler = httpOperation(SyncTemplates.request, async ({ workspace }) => ok({ synced_count: await syncAllAccounts(workspace) }));
