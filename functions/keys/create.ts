import * as v from 'valibot';
import { createKey } from '#shared/domain/api-keys';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { text } from '#shared/http/schemas';

const body = v.object({
  name: text(100),
  description: v.optional(v.pipe(v.string(), v.maxLength(500, 'Must be at most 500 characters'))),
});

export const handler = httpOperation({ body }, async ({ body, workspace }) => created(await createKey(workspace.id, body)));
