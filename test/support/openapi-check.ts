import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { Reply } from '#local/api-client';
import { buildOpenApiDocument, type Audience } from '#shared/openapi/document';

/**
 * Checks a real answer of the API against the API document, as generated from the code: the
 * route and method must be documented (anything else must be the 404 `route_not_found`), the
 * status must be one of the operation's, and the body must match that status's schema. Objects
 * are checked closed (no property the document does not name), so a field the code adds without
 * documenting it fails too, and timestamps must have the contract's form.
 */

interface Header {
  $ref?: string;
  required?: boolean;
}
interface Response {
  $ref?: string;
  headers?: Record<string, Header>;
  content?: Record<string, unknown>;
}
interface HeaderParameter {
  name: string;
  required?: boolean;
  schema: object;
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  webhooks: Record<string, { post: { parameters: { $ref: string }[] } }>;
  components: { responses: Record<string, Response>; headers: Record<string, Header>; parameters: Record<string, HeaderParameter> };
}

interface Route {
  pattern: RegExp;
  path: string;
  methods: Document['paths'][string];
}

/** The document's object schemas, each refusing the properties it does not declare (records and narrowing parts left open). */
function closed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closed);
  if (!value || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, closed(entry)]));
  return copy.type === 'object' && copy.properties && copy.additionalProperties === undefined ? { ...copy, unevaluatedProperties: false } : copy;
}

const FORMATS = {
  // Contract §1: ISO-8601 UTC with milliseconds.
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:/i,
};

const checkers: Partial<Record<Audience, ReturnType<typeof createChecker>>> = {};

function createChecker(audience: Audience) {
  const document = closed(buildOpenApiDocument(audience)) as Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: FORMATS });
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    if (!validators.has(pointer)) validators.set(pointer, ajv.compile({ $ref: `openapi#${pointer}` }));
    return validators.get(pointer)!;
  };
  // Static segments win over parameters, as in the router.
  const routes: Route[] = Object.entries(document.paths)
    .map(([path, methods]) => ({ path, methods, pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`) }))
    .sort((a, b) => b.path.replace(/\{\w+\}/g, '').length - a.path.replace(/\{\w+\}/g, '').length);
  return { document, validatorAt, routes };
}

const pointerPart = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function fail(what: string, method: string, path: string, reply: Reply, problems: string[] = []): never {
  const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  throw new Error(`${method} ${path} answered ${reply.status}: ${what}\n${problems.join('\n')}\nbody: ${body.slice(0, 2000)}`);
}

/** Throws, saying why, when the answer is not what the API document promises. */
export function checkReply(method: string, path: string, reply: Reply): void {
  const pathname = new URL(path, 'http://api').pathname;
  // The operator's API has a document of its own (docs/openapi-admin.json).
  const audience: Audience = pathname.startsWith('/admin/') ? 'operator' : 'workspaces';
  checkers[audience] ??= createChecker(audience);
  const { document, validatorAt, routes } = checkers[audience];
  const route = routes.find((candidate) => candidate.pattern.test(pathname));
  const operation = route?.methods[method.toLowerCase()];
  if (!route || !operation) {
    if (reply.status === 404 && reply.body?.error?.code === 'route_not_found' && validatorAt('/components/schemas/ErrorEnvelope')(reply.body)) return;
    fail('not a documented route, and not a route_not_found error', method, path, reply);
  }

  let pointer = `/paths/${pointerPart(route.path)}/${method.toLowerCase()}/responses/${reply.status}`;
  let response = operation.responses[String(reply.status)];
  if (!response) fail(`status not documented (documented: ${Object.keys(operation.responses).join(', ')})`, method, path, reply);
  if (typeof response.$ref === 'string') {
    pointer = response.$ref.slice(1);
    response = document.components.responses[response.$ref.split('/').pop()!];
  }

  const missing = Object.entries(response.headers ?? {}).filter(([name, header]) => {
    const required = header.required ?? document.components.headers[header.$ref?.split('/').pop() ?? '']?.required;
    return required && !reply.headers.has(name);
  });
  if (missing.length) fail(`required headers missing: ${missing.map(([name]) => name).join(', ')}`, method, path, reply);

  const mediaType = (reply.headers.get('content-type') ?? '').split(';')[0].trim();
  if (!response.content?.[mediaType]) fail(`content type ${mediaType || '(none)'} not documented`, method, path, reply);
  const validate = validatorAt(`${pointer}/content/${pointerPart(mediaType)}/schema`);
  // The client parses any answer that looks like JSON; plain text is checked as the text it was.
  const body = mediaType === 'text/plain' && typeof reply.body !== 'string' ? JSON.stringify(reply.body) : reply.body;
  if (!validate(body))
    fail(
      'body does not match the documented schema',
      method,
      path,
      reply,
      (validate.errors ?? []).map((e) => `  ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`),
    );
}

/**
 * Throws, saying why, when a delivered event is not what the document's `webhooks` promise: its
 * type must be one of them, its body must match that webhook's schema (objects closed, as for
 * answers), and every header the webhook declares must be there in its documented form.
 */
export function checkEvent(headers: Record<string, string | string[] | undefined>, rawBody: string): void {
  checkers.workspaces ??= createChecker('workspaces');
  const { document, validatorAt } = checkers.workspaces;
  const problem = (what: string, details: string[] = []) => new Error(`event ${what}\n${details.join('\n')}\nbody: ${rawBody.slice(0, 2000)}`);
  const body: unknown = JSON.parse(rawBody);
  const { type, id } = body as { type?: string; id?: string };
  const webhook = document.webhooks[type ?? ''];
  if (!webhook) throw problem(`type ${type} is not one of the document's webhooks`);
  for (const { $ref } of webhook.post.parameters) {
    const pointer = $ref.slice(1);
    const parameter = document.components.parameters[$ref.split('/').pop()!];
    const value = headers[parameter.name];
    if (typeof value !== 'string') throw problem(`header ${parameter.name} missing`);
    if (!validatorAt(`${pointer}/schema`)(value)) throw problem(`header ${parameter.name}: ${value} does not match its schema`);
  }
  if (headers['webhook-id'] !== id) throw problem(`header webhook-id ${headers['webhook-id']} is not the event id ${id}`);
  const validate = validatorAt(`/webhooks/${pointerPart(type!)}/post/requestBody/content/application~1json/schema`);
  if (!validate(body))
    throw problem(
      `${type} does not match the documented schema`,
      (validate.errors ?? []).map((e) => `  ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`),
    );
}
