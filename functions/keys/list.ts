import { listKeys, publicView } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({}, async ({ workspace }) => ok((await listKeys(workspace.id)).map(publicView)));
