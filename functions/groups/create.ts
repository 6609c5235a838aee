import * as v from 'valibot';
import { createGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { text } from '#shared/http/schemas';

const body = v.object({
  name: text(200),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, 'Must be at most 1000 characters')))),
});

export const handler = httpOperation({ body }, async ({ body, workspace }) => created(await createGroup(workspace.id, body)));
