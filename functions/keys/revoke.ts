import { revokeKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { RevokeKey } from '#shared/schemas/operations/keys';

export const handler = httpOperation(RevokeKey.request, async ({ query, workspace }) => ok(await revokeKey(workspace.id, query.id)));
