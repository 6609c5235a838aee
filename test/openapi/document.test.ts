import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { operations } from '#shared/service/operations';
import * as v from 'valibot';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { httpDescriptions } from '#shared/schemas/operations/index';
import { useTestApi } from '../support/api';

const api = useTestApi();

const httpOperations = operations.flatMap((operation) => (operation.trigger.type === 'http' ? [{ name: operation.name, ...operation.trigger }] : []));
const routesOf = (operator: boolean) =>
  httpOperations.filter((route) => Boolean(route.operator) === operator).map(({ method, path, name }) => `${method} ${path} ${name}`);
const documentedIn = (document: { paths: Record<string, Record<string, { operationId: string }>> }) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
  );

interface Validation {
  swaggerParserError: string | null;
  redoclyProblems: { ruleId: string; severity: 'error' | 'warn'; message: string; pointer: string }[];
}

/** swagger-parser and Redocly's linter, in a process of their own (see validate-document.mjs). */
function validate(document: unknown): Validation {
  const run = spawnSync(process.execPath, [join(__dirname, 'validate-document.mjs')], { input: JSON.stringify(document), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe('GET /api/v1/openapi.json', () => {
  let served: { paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };
  let validation: Validation;

  beforeAll(async () => {
    const reply = await api.call('GET', '/api/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    served = reply.body;
    validation = validate(served);
  });

  it('needs no key, and is itself a public operation of the document', () => {
    expect(served.paths['/api/v1/openapi.json'].get.security).toEqual([]);
  });

  it('is the document the code generates', () => {
    expect(served).toEqual(buildOpenApiDocument());
  });

  it('validates with swagger-parser', () => {
    expect(validation.swaggerParserError).toBeNull();
  });

  it("has no error under Redocly's recommended rules", () => {
    const problems = validation.redoclyProblems;
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    // Warnings the document keeps on purpose: no license is declared, and the four public reads cannot fail with a 4xx.
    expect(problems.filter((problem) => problem.severity === 'warn').map(({ ruleId, pointer }) => `${ruleId} ${pointer}`)).toEqual([
      'info-license #/info',
      'operation-4xx-response #/paths/~1health/get/responses',
      'operation-4xx-response #/paths/~1api~1v1~1openapi.json/get/responses',
      'operation-4xx-response #/paths/~1docs/get/responses',
      'operation-4xx-response #/paths/~1docs~1redoc.standalone.js/get/responses',
    ]);
  });

  it("lists every HTTP operation of the operation list but the operator's, and nothing else", () => {
    expect(documentedIn(served).sort()).toEqual(routesOf(false).sort());
  });
});

describe("the operator's document (docs/openapi-admin.json)", () => {
  const document = buildOpenApiDocument('operator') as { paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };

  it("lists every operator route (/admin/v1), and nothing else, each behind the operator's SigV4 or local key", () => {
    expect(documentedIn(document).sort()).toEqual(routesOf(true).sort());
    for (const methods of Object.values(document.paths))
      for (const operation of Object.values(methods)) expect(operation.security).toEqual([{ OperatorSigV4: [] }, { OperatorKey: [] }]);
  });

  it("validates with swagger-parser, with no error under Redocly's recommended rules", () => {
    const { swaggerParserError, redoclyProblems } = validate(document);
    expect(swaggerParserError).toBeNull();
    expect(redoclyProblems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });
});

describe('request examples', () => {
  const examples = Object.entries(httpDescriptions).flatMap(([name, description]) =>
    description.bodyExample ? [[name, description.request?.body, description.bodyExample] as const] : [],
  );

  it('are shown for the main writes', () => {
    expect(examples.map(([name]) => name)).toEqual(
      expect.arrayContaining(['SendMessage', 'UpsertContact', 'CreateCampaign', 'LaunchCampaign', 'CreateWebhook']),
    );
  });

  it.each(examples)("%s's example is a body its schema accepts", async (_name, body, example) => {
    const parsed = await v.safeParseAsync(body!, example);
    expect(parsed.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? []).toEqual([]);
  });
});

describe('generated files', () => {
  it('docs/openapi.json and the client types are what `npm run openapi` writes from the current code', () => {
    // A process of its own: openapi-typescript loads ES modules that jest's CommonJS runtime cannot.
    const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), 'scripts/openapi.ts', '--check'], {
      cwd: join(__dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(run.status === 0 ? '' : run.stderr || `exit ${run.status}`).toBe('');
  }, 60_000);
});
