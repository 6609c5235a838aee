import { revokeKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { revokeKeyQuery } from '#shared/schemas/keys';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: revokeKeyQuery }, async ({ query, workspace }) => ok(await revokeKey(workspace.id, query.id)));
