import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundling } from '#lib/bundling';
import { operations } from '#shared/service/operations';
import { httpDescriptions } from '#shared/schemas/operations/index';

const root = join(__dirname, '..', '..');
const httpOperations = operations.filter((operation) => operation.trigger.type === 'http');
const source = (handler: string) => readFileSync(join(root, handler), 'utf8');

describe('operation descriptions (shared/schemas/operations)', () => {
  it('describe every HTTP operation of the operation list, under its name, and nothing else', () => {
    expect(Object.keys(httpDescriptions).sort()).toEqual(httpOperations.map((operation) => operation.name).sort());
  });

  // The handler validates with exactly the schemas the document shows.
  it.each(httpOperations.filter((operation) => httpDescriptions[operation.name]?.auth === 'apiKey').map((operation) => [operation.name, operation.handler]))(
    "%s's handler takes its request schemas from its description",
    (name, handler) => {
      expect(source(handler)).toMatch(new RegExp(`import \\{ ${name} \\} from '#shared/schemas/operations/[a-z-]+';`));
      expect(source(handler)).toMatch(new RegExp(`httpOperation\\(${name}\\.request,`));
    },
  );

  it.each(httpOperations.filter((operation) => httpDescriptions[operation.name]?.auth === 'operator').map((operation) => [operation.name, operation.handler]))(
    "%s, of the operator's API, takes its request schemas from its description and runs behind the operator's authentication",
    (name, handler) => {
      expect(source(handler)).toMatch(new RegExp(`import \\{ ${name} \\} from '#shared/schemas/operations/operator';`));
      expect(source(handler)).toMatch(new RegExp(`operatorOperation\\(${name}\\.request,`));
    },
  );

  it.each(
    httpOperations
      .filter((operation) => !['apiKey', 'operator'].includes(httpDescriptions[operation.name]?.auth ?? ''))
      .map((operation) => [operation.name, operation.handler]),
  )('%s, described as public, runs without an API key', (_name, handler) => {
    expect(source(handler)).toMatch(/publicHttpOperation\(/);
    expect(source(handler)).not.toMatch(/\bhttpOperation\(/);
  });
});

/** A schema module's resource: `contacts` for shared/schemas/contacts.ts and shared/schemas/operations/contacts.ts. */
const resourceOf = (input: string) => /^shared\/schemas\/(?:operations\/)?([a-z-]+)\.ts$/.exec(input)?.[1];
const SHARED_BY_ALL = new Set(['common', 'description']);

describe('handler bundles', () => {
  describe('each bundled handler', () => {
    /** The source files each handler's bundle keeps code of, by operation name: one build of every handler (esbuild shares the parsing). */
    let keptBy: Map<string, string[]>;
    beforeAll(async () => {
      const { metafile } = await build({
        entryPoints: Object.fromEntries(httpOperations.map((operation) => [operation.name, join(root, operation.handler)])),
        absWorkingDir: root,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        mainFields: bundling.mainFields,
        external: bundling.externalModules,
        write: false,
        outdir: 'out',
        metafile: true,
        logLevel: 'error',
      });
      keptBy = new Map(
        Object.entries(metafile.outputs).map(([output, { inputs }]) => [
          output.replace(/^out\/|\.js$/g, ''),
          Object.entries(inputs)
            .filter(([, input]) => input.bytesInOutput > 0)
            .map(([path]) => path),
        ]),
      );
    }, 120_000);

    it.each(httpOperations.map((operation) => [operation.name, operation.handler]))(
      '%s keeps no generator, no response schema and no other resource’s schemas',
      (name, handler) => {
        const kept = keptBy.get(name)!;
        expect(kept).toBeDefined();
        expect(
          kept.filter((path) =>
            /^shared\/openapi\/|^shared\/schemas\/responses\/|^shared\/schemas\/operations\/index\.ts$|@valibot\/to-json-schema/.test(path),
          ),
        ).toEqual([]);
        const own = /#shared\/schemas\/operations\/([a-z-]+)'/.exec(source(handler))?.[1];
        const resources = new Set(kept.map(resourceOf).filter((resource) => resource && !SHARED_BY_ALL.has(resource)));
        expect([...resources]).toEqual(own && resources.size ? [own] : []);
      },
    );
  });
});
