import * as v from 'valibot';
import { acceptMessage } from '#shared/domain/messages/accept';
import { createdView } from '#shared/domain/messages/message';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { phone } from '#shared/http/schemas';
import { variables } from '#shared/http/variables-schema';

const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(512, 'Must be at most 512 characters'));
const language = v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/, 'Must be a language code such as en_US'));

const body = v.pipe(
  v.object({
    to: phone(),
    template: v.optional(v.union([name, v.object({ name, language: v.optional(language) })], 'Must be a template name or { name, language }')),
    variables: v.optional(variables()),
    text: v.optional(v.pipe(v.string(), v.check((t) => t.trim().length > 0, 'Must not be empty'), v.maxLength(4096, 'Must be at most 4096 characters'))),
    language: v.optional(language),
  }),
  v.forward(
    v.partialCheck([['template'], ['text']], (input) => (input.template === undefined) !== (input.text === undefined), 'Exactly one of template and text is required'),
    ['template'],
  ),
  v.forward(
    v.partialCheck([['text'], ['variables']], (input) => input.text === undefined || input.variables === undefined, 'Variables apply to template messages only'),
    ['variables'],
  ),
);

export const handler = httpOperation({ body, idempotentAs: 'POST /api/v1/messages' }, async ({ body, workspace, resourceId }) =>
  accepted(createdView(await acceptMessage(workspace.id, body, resourceId))),
);
