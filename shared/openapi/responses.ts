/**
 * The responses of an operation in the document: its successes in the envelope (or as is), and
 * one error response per status, with the headers each carries.
 */
import * as v from 'valibot';
import type { JsonSchema } from '@valibot/to-json-schema';
import type { EnvelopedSuccess, HttpDescription, RawSuccess } from '#shared/schemas/operations/description';
import { successEnvelope } from '#shared/schemas/responses/envelope';
import * as schemas from '#shared/schemas/responses/index';
import { codesByStatus, ERROR_MEANINGS, errorCodesOf, type EnvelopeErrorCode } from '#shared/openapi/errors';

export type Json = Record<string, unknown>;

export const ref = (kind: 'headers' | 'parameters' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const HEADERS: Json = {
  RequestId: { description: 'The request id, also `request_id` in the body', required: true, schema: { type: 'string', format: 'uuid' } },
  IdempotentReplayed: {
    description: 'On the replayed answer of an earlier request with the same Idempotency-Key (a replayed 4xx carries it too)',
    schema: { const: 'true' },
  },
  WwwAuthenticate: { description: 'The scheme to authenticate with', required: true, schema: { const: 'Bearer' } },
  RetryAfter: { description: 'Seconds to wait before the next request', required: true, schema: { type: 'integer', minimum: 1 } },
  RateLimitLimit: { description: "The workspace's requests per second", required: true, schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { required: true, schema: { type: 'integer', minimum: 0 } },
};

const idempotent = (description: HttpDescription) => description.auth === 'apiKey' && description.request.idempotentAs !== undefined;

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted: the rest happens asynchronously' };

export function successResponse(success: EnvelopedSuccess | RawSuccess, description: HttpDescription, convert: (schema: v.GenericSchema) => JsonSchema): Json {
  const headers = {
    'X-Request-Id': ref('headers', 'RequestId'),
    ...(idempotent(description) && { 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') }),
  };
  if ('body' in success)
    return { description: SUCCESS_TEXT[success.status], headers, content: { [success.mediaType]: { schema: convert(schemas[success.body]) } } };
  const data = success.list ? v.array(schemas[success.data]) : schemas[success.data];
  const paging = success.list === 'pages' ? schemas.pagination : success.list === 'cursor' ? schemas.cursorPagination : undefined;
  return {
    description: success.when ?? SUCCESS_TEXT[success.status],
    headers,
    content: { 'application/json': { schema: convert(successEnvelope(data, paging)) } },
  };
}

/** The error envelope of one status, its `code` narrowed to the codes answered with it. */
function errorResponse(codes: EnvelopeErrorCode[], withAuthenticateHeader: boolean): Json {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_MEANINGS[code]}`).join('. '),
    headers: {
      'X-Request-Id': ref('headers', 'RequestId'),
      ...(withAuthenticateHeader && { 'WWW-Authenticate': ref('headers', 'WwwAuthenticate') }),
      ...(codes.includes('rate_limited') && {
        'Retry-After': ref('headers', 'RetryAfter'),
        'RateLimit-Limit': ref('headers', 'RateLimitLimit'),
        'RateLimit-Remaining': ref('headers', 'RateLimitRemaining'),
      }),
    },
    content: {
      'application/json': { schema: { allOf: [ref('schemas', 'ErrorEnvelope'), { properties: { error: { properties: { code: { enum: codes } } } } }] } },
    },
  };
}

/** Operations behind a Bearer credential (a workspace's key, or locally the operator's): their 401 carries `WWW-Authenticate`. */
const isBearer = (description: HttpDescription) => description.auth === 'apiKey' || description.auth === 'operator';

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase());

/**
 * Error responses by status. A set of codes that several operations behind an API key answer
 * with is written once under `components.responses`, named after its codes (`NotFound`,
 * `InvalidJsonOrValidationError`), and referred to; the others stay inline (as do the public
 * routes', whose 401 carries no `WWW-Authenticate`).
 */
export class ErrorResponses {
  readonly components: Record<string, Json> = {};
  private readonly uses = new Map<string, number>();

  constructor(descriptions: HttpDescription[]) {
    for (const description of descriptions.filter(isBearer)) {
      for (const codes of codesByStatus(errorCodesOf(description), description.unprocessable).values())
        this.uses.set(codes.join(), (this.uses.get(codes.join()) ?? 0) + 1);
    }
  }

  of(description: HttpDescription): Json {
    const bearer = isBearer(description);
    return Object.fromEntries(
      [...codesByStatus(errorCodesOf(description), description.unprocessable)].map(([status, codes]) => {
        const response = errorResponse(codes, bearer && codes.includes('unauthorized'));
        if (!bearer || this.uses.get(codes.join())! < 2) return [status, response];
        const name = codes.map(pascal).join('Or');
        this.components[name] = response;
        return [status, ref('responses', name)];
      }),
    );
  }
}
