/**
 * The OpenAPI 3.1 document of the API, built from the operation list (every `http` operation,
 * its method and path) and each operation's description (shared/schemas/operations): the same
 * valibot schemas the handlers validate with, and the response schemas of what they answer.
 */
import * as v from 'valibot';
import type { JsonSchema } from '@valibot/to-json-schema';
import type { Operation } from '#shared/service/operation';
import { operations } from '#shared/service/operations';
import { httpDescriptions } from '#shared/schemas/operations/index';
import type { RequestSchemas } from '#shared/http/middleware/validate';
import type { HttpDescription, Tag } from '#shared/schemas/operations/description';
import * as responses from '#shared/schemas/responses/index';
import * as operatorResponses from '#shared/schemas/responses/operator';
import { ERROR_MEANINGS } from '#shared/openapi/errors';
import { ErrorResponses, HEADERS, ref, successResponse, type Json } from '#shared/openapi/responses';
import { queryParameterSchema, requestSchema, responseConverter } from '#shared/openapi/json-schema';
import { OVERVIEW } from '#shared/openapi/overview';
import { buildWebhooks, eventComponents, EVENTS_TAG, WEBHOOK_PARAMETERS } from '#shared/openapi/webhooks';

const TAGS: Record<Tag, string> = {
  Messages: 'Template and session messages, their statuses, and customer messages received',
  Campaigns: 'Broadcasts of one template to many recipients, with live metrics',
  Contacts: 'The contact book: one contact per phone number, with tags and custom fields',
  Groups: 'Audiences of contacts',
  Calls: "WhatsApp calls through the platform's Calling API: settings, permissions, the business's calls, answering customers' calls, the call log",
  'Chat groups': "Real WhatsApp groups a business number runs through the platform's Groups API: created, joined by invite link, messaged",
  Numbers: "The workspace's WhatsApp business numbers: which one sends, and how the platform rates each",
  Templates: "The workspace's message templates, as the platform approved them",
  Webhooks: 'Subscriptions of your endpoints to the service events, and their delivery log',
  'API keys': "The workspace's keys",
  Usage: "The workspace's API usage",
  Service: 'Health and this document',
  'Platform webhooks': 'Called by Meta, not by API clients',
  'Operator: workspaces': 'Workspaces, their settings, suspension and first keys',
  'Operator: numbers': "Workspaces' business numbers and their throughput",
};

/**
 * Two documents from the one operation list: the workspaces' API (`/api/v1`, served at
 * `GET /api/v1/openapi.json`) and the operator's (`/admin/v1`, docs/openapi-admin.json, not served:
 * a workspace's client has no use for it, docs/operator.md).
 */
export type Audience = 'workspaces' | 'operator';

const INFO: Record<Audience, () => Json> = {
  workspaces: () => ({
    title: 'WhatsApp Business messaging API',
    version: '1.0.0',
    description: `${OVERVIEW}\n\n**Error codes.**\n\n${errorCodeList()}`,
  }),
  operator: () => ({
    title: "WhatsApp Business messaging API: the operator's API",
    version: '1.0.0',
    description:
      'What the operator (whoever deployed the service) does to workspaces, without access to the table or its secrets (contract §19). ' +
      "In AWS every request is signed with AWS Signature Version 4 by a principal the deployment grants (CDK context `operatorPrincipals`); API Gateway refuses anything else before the service runs. On the local stack, the operator key `npm start` prints, as a Bearer token. A workspace's API key is refused (401).\n\n" +
      `**Error codes.**\n\n${errorCodeList()}`,
  }),
};

const SECURITY_SCHEMES: Record<Audience, Json> = {
  workspaces: {
    ApiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk_live_…',
      description: 'An API key of the workspace, created with POST /api/v1/keys or the admin command. The scheme word is case-insensitive.',
    },
    MetaSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Hub-Signature-256',
      description: "How Meta signs the platform's webhooks: `sha256=` and the hex HMAC-SHA256 of the raw body with the app secret. No API client holds it.",
    },
  },
  operator: {
    OperatorSigV4: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'In AWS: an AWS Signature Version 4 (service `execute-api`) of a principal granted `execute-api:Invoke` on the /admin/v1 routes.',
    },
    OperatorKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'On the local stack only: the operator key `npm start` prints and writes to .local/credentials.json as `operator_key`.',
    },
  },
};

/** Every response schema, a component named after its export (`contact` is `Contact`); the operator's only in the operator's document. */
const components = (audience: Audience): Record<string, v.GenericSchema> =>
  Object.fromEntries(
    Object.entries(responses)
      .filter(([name]) => audience === 'operator' || !(name in operatorResponses))
      .map(([name, schema]) => [name[0].toUpperCase() + name.slice(1), schema]),
  );

const objectEntries = (schema: v.GenericSchema, what: string): Record<string, v.GenericSchema> => {
  if (!('entries' in schema)) throw new Error(`${what} must be an object schema`);
  return schema.entries as Record<string, v.GenericSchema>;
};

const isOptional = (schema: v.GenericSchema) => ['optional', 'exact_optional', 'nullish'].includes(schema.type);

function parameters(name: string, path: string, description: HttpDescription): Json[] {
  const { params, query }: RequestSchemas = description.request ?? {};
  const named = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const pathEntries = params ? objectEntries(params, `${name}'s params`) : {};
  if (named.join() !== Object.keys(pathEntries).join()) throw new Error(`${name}: the path ${path} and its params schema name different parameters`);
  return [
    ...named.map((param) => ({ name: param, in: 'path', required: true, schema: requestSchema(pathEntries[param]) })),
    ...Object.entries(query ? objectEntries(query, `${name}'s query`) : {}).map(([param, schema]) => ({
      name: param,
      in: 'query',
      required: !isOptional(schema),
      schema: queryParameterSchema(schema),
    })),
    ...(description.auth === 'apiKey' && description.request.idempotentAs ? [ref('parameters', 'IdempotencyKey')] : []),
  ];
}

const errorCodeList = () =>
  Object.entries(ERROR_MEANINGS)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join('\n');

const SECURITY: Record<HttpDescription['auth'], Json[]> = {
  apiKey: [{ ApiKey: [] }],
  none: [],
  platformSignature: [{ MetaSignature: [] }],
  operator: [{ OperatorSigV4: [] }, { OperatorKey: [] }],
};

const audienceOf = (description: HttpDescription): Audience => (description.auth === 'operator' ? 'operator' : 'workspaces');

interface Builders {
  convert: (schema: v.GenericSchema) => JsonSchema;
  errors: ErrorResponses;
}

function operationObject(operation: Operation, path: string, description: HttpDescription, { convert, errors }: Builders): Json {
  const body = description.request?.body;
  const params = parameters(operation.name, path, description);
  const successes = description.success.map((success) => [success.status, successResponse(success, description, convert)]);
  return {
    operationId: operation.name,
    tags: [description.tag],
    summary: description.summary,
    ...(description.description && { description: description.description }),
    security: SECURITY[description.auth],
    ...(params.length && { parameters: params }),
    ...(body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: requestSchema(body), ...(description.bodyExample && { example: description.bodyExample }) } },
      },
    }),
    responses: { ...Object.fromEntries(successes), ...errors.of(description) },
  };
}

/** The document of one audience: the workspaces' for `GET /api/v1/openapi.json` (through docs/openapi.json) and the tests; the operator's for docs/openapi-admin.json. */
export function buildOpenApiDocument(audience: Audience = 'workspaces'): Json {
  const routes = operations.flatMap((operation) => {
    const { trigger } = operation;
    if (trigger.type !== 'http') return [];
    const description = httpDescriptions[operation.name];
    if (!description) throw new Error(`${operation.name} has no description in shared/schemas/operations`);
    if (audienceOf(description) !== audience) return [];
    return [{ operation, path: trigger.path, method: trigger.method.toLowerCase(), description }];
  });
  const isPublic = audience === 'workspaces';
  const { components: schemas, convert } = responseConverter({ ...components(audience), ...(isPublic ? eventComponents() : {}) });
  const usedTags = new Set(routes.map((route) => route.description.tag));
  const errors = new ErrorResponses(routes.map((route) => route.description));
  const paths: Record<string, Json> = {};
  for (const { operation, path, method, description } of routes) {
    paths[path] = { ...paths[path], [method]: operationObject(operation, path, description, { convert, errors }) };
  }
  return {
    openapi: '3.1.0',
    info: INFO[audience](),
    servers: [{ url: '/', description: 'The deployment serving this document (locally, `npm start` serves it on port 3000)' }],
    tags: [
      ...Object.entries(TAGS)
        .filter(([name]) => usedTags.has(name as Tag))
        .map(([name, text]) => ({ name, description: text })),
      ...(isPublic ? [EVENTS_TAG] : []),
    ],
    paths,
    ...(isPublic && { webhooks: buildWebhooks() }),
    components: {
      schemas,
      responses: errors.components,
      headers: HEADERS,
      parameters: {
        ...(isPublic && WEBHOOK_PARAMETERS),
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes a retry safe: the same key with the same body within 24 hours replays the first answer',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: SECURITY_SCHEMES[audience],
    },
  };
}
