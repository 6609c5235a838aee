/**
 * The transport-neutral description of one HTTP operation of shared/service/operations.ts, under
 * the same name: what it takes, what it answers, how it can fail. Handlers take their request
 * schemas from it and shared/openapi builds the API document from all of them, so the two
 * cannot drift, and the generator never loads handler code.
 */
import type * as v from 'valibot';
import type { ErrorCode } from '#shared/http/errors';
import type { OperationOptions } from '#shared/http/operation';
import type { RequestSchemas } from '#shared/http/middleware/validate';
import type * as responses from '#shared/schemas/responses/index';

/** A response schema, by its name in shared/schemas/responses (type-only: a handler's bundle keeps no response schema). */
export type ResponseName = keyof typeof responses;

export type Tag =
  | 'API keys'
  | 'Usage'
  | 'Numbers'
  | 'Templates'
  | 'Contacts'
  | 'Groups'
  | 'Chat groups'
  | 'Calls'
  | 'Messages'
  | 'Campaigns'
  | 'Webhooks'
  | 'Platform webhooks'
  | 'Service'
  /** The operator's API (/admin/v1), documented apart from the workspaces' (docs/operator.md). */
  | 'Operator: workspaces'
  | 'Operator: numbers';

/** A success in the envelope: `data` is one of these, or a list of them (`pages`, `cursor`: with the pagination block). */
export interface EnvelopedSuccess {
  status: 200 | 201 | 202;
  data: ResponseName;
  list?: 'all' | 'pages' | 'cursor';
  /** When this status is the answer, where an operation has several. */
  when?: string;
}

/** A success answered as is, outside the envelope. */
export interface RawSuccess {
  status: 200;
  mediaType: 'application/json' | 'text/plain' | 'text/html' | 'text/javascript';
  body: ResponseName;
}

interface Described {
  tag: Tag;
  summary: string;
  description?: string;
  /** The refusals of the operation's own rules; the generator adds those of the stack around it (key, rate limit, JSON, validation, idempotency). */
  errors?: readonly ErrorCode[];
  /** Codes this operation also answers with 422, when the request is well-formed but its content is refused (a template's rules, the platform's refusal). */
  unprocessable?: readonly ErrorCode[];
  /** A body a client would send, shown in the API reference (a test parses it with the body schema). */
  bodyExample?: Record<string, unknown>;
}

/** An operation behind `httpOperation` (Bearer API key): `request` is exactly what its handler passes to it. */
export interface ApiKeyOperation extends Described {
  auth: 'apiKey';
  request: OperationOptions;
  success: readonly EnvelopedSuccess[];
}

/**
 * A route behind `publicHttpOperation`: open to anyone, or to the platform's signed webhooks.
 * Its handler reads the request itself, so `request` only documents what it reads.
 */
export interface PublicOperation extends Described {
  auth: 'none' | 'platformSignature';
  request?: { query?: v.GenericSchema; body?: v.GenericSchema };
  success: readonly (EnvelopedSuccess | RawSuccess)[];
}

/** An operation of the operator's API behind `operatorOperation` (contract §19): `request` is exactly what its handler passes to it. */
export interface OperatorOperation extends Described {
  auth: 'operator';
  request: RequestSchemas;
  success: readonly EnvelopedSuccess[];
}

export type HttpDescription = ApiKeyOperation | PublicOperation | OperatorOperation;
