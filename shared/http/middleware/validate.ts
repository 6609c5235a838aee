import * as v from 'valibot';
import { errors, type ErrorDetail } from '#shared/errors';
import type { ApiMiddleware } from '#shared/http/context';

export interface RequestSchemas {
  body?: v.GenericSchema;
  query?: v.GenericSchema;
  params?: v.GenericSchema;
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;
export interface ValidInput<S extends RequestSchemas> {
  body: Out<S['body']>;
  query: Out<S['query']>;
  params: Out<S['params']>;
}

function check(schema: v.GenericSchema | undefined, input: unknown, root: string, problems: ErrorDetail[]) {
  if (!schema) return undefined;
  // Every field checked, each reported once: its first failing rule.
  const result = v.safeParse(schema, input, { abortEarly: false, abortPipeEarly: true });
  if (result.success) return result.output;
  for (const issue of result.issues) problems.push({ field: v.getDotPath(issue) ?? root, message: issue.message });
  return undefined;
}

/** Validates body, query and path together, so one 400 lists every problem, each with its dotted field path. */
export const validateRequest = (schemas: RequestSchemas): ApiMiddleware => ({
  before: ({ event, context }) => {
    const problems: ErrorDetail[] = [];
    const body = (event as { parsedBody?: unknown }).parsedBody;
    // Every request body of the API is a JSON object; valibot's object schema would let an array through.
    if (schemas.body && Array.isArray(body)) throw errors.validation([{ field: 'body', message: 'Must be a JSON object' }]);
    const input = {
      body: check(schemas.body, body, 'body', problems),
      query: check(schemas.query, event.queryStringParameters ?? {}, 'query', problems),
      params: check(schemas.params, event.pathParameters ?? {}, 'path', problems),
    };
    if (problems.length) throw errors.validation(problems);
    context.input = input;
  },
});
