import { listKeys, publicView } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListKeys } from '#shared/schemas/operations/keys';

export const handler = httpOperation(ListKeys.request, async ({ workspace }) => ok((await listKeys(workspace.id)).map(publicView)));
