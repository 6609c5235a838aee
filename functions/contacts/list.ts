import * as v from 'valibot';
import { listContacts } from '#shared/domain/contacts/list';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pageParams } from '#shared/http/schemas';

const query = v.object({
  ...pageParams,
  search: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(200, 'Must be at most 200 characters'))),
  tag: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(50, 'Must be at most 50 characters'))),
});

export const handler = httpOperation({ query }, async ({ query, workspace }) => {
  const { data, pagination } = await listContacts(workspace.id, query);
  return ok(data, { pagination });
});
