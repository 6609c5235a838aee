import * as v from 'valibot';
import { revokeKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { uuid } from '#shared/http/schemas';

const query = v.object({ id: uuid() });

export const handler = httpOperation({ query }, async ({ query, workspace }) => ok(await revokeKey(workspace.id, query.id)));
