import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundling, esbuildBuildOptions } from '#lib/bundling';
import { operations } from '#shared/service/operations';

const root = resolve(__dirname, '../..');

/**
 * How every function is bundled (lib/bundling.ts): each loads on its own, with nothing from a
 * node_modules beside it, maps its stacks from its source map, and carries the SDK's clients it
 * calls at the lock file's versions, nothing of the SDK left to the Lambda runtime's own copy.
 */
describe('function bundling', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'bundling-test-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Node.js's --enable-source-maps would parse the map as the bundle loads (5–10 ms of each cold start, docs/performance.md): no function sets it.
  test("a bundle's error stacks name its TypeScript source from the map beside it, with Node.js's source maps off", async () => {
    const entry = join(dir, 'throwing.ts');
    writeFileSync(
      entry,
      [
        'function failing(): never {',
        "  throw new Error('mapped');",
        '}',
        'try {',
        '  failing();',
        '} catch (error) {',
        '  process.stdout.write((error as Error).stack!);',
        '}',
      ].join('\n'),
    );
    const outfile = join(dir, 'throwing.js');
    await build({ ...esbuildBuildOptions, entryPoints: [entry], outfile, logLevel: 'error' });

    const run = spawnSync(process.execPath, [outfile], { cwd: dir, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    const [header, first, second] = run.stdout.split('\n');
    expect(header).toBe('Error: mapped');
    expect(first).toBe('    at failing (throwing.ts:2:9)');
    expect(second).toMatch(/^ {4}at .* \(throwing\.ts:5:3\)$/);
  });

  test('the stand-in for node:stream/web gives each of its classes, as the module does', () => {
    const standIn = require(bundling.alias['node:stream/web']) as Record<string, unknown>;
    const webStreams = require('node:stream/web') as Record<string, unknown>;
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(webStreams).sort());
    for (const name of Object.keys(webStreams)) expect(standIn[name]).toBe(webStreams[name]);
  });

  // A client that requires a left-out module when it loads (the S3 client does) would fail at start: every function is loaded
  // (and must not load node:stream/web, which the stand-in above keeps out, and must map its stacks from its source map on demand),
  // with the package files it reads copied beside it, as the stack's bundling does (lib/service-function.ts). One build makes
  // every function's bundle (esbuild shares the parsing), as many builds of one entry each would at several times the cost.
  describe('every function', () => {
    let outdir: string;
    let metafile: Metafile;
    beforeAll(async () => {
      outdir = join(dir, 'functions');
      ({ metafile } = await build({
        ...esbuildBuildOptions,
        entryPoints: Object.fromEntries(operations.map((op) => [op.name, join(root, op.handler)])),
        outdir,
        absWorkingDir: root,
        metafile: true,
        logLevel: 'error',
      }));
    }, 120_000);

    // Sizes are printed, not held to a budget: the SDK's clients are most of each bundle (docs/performance.md, the cold-start bench).
    test('each carries the SDK it calls, none of it left to the runtime', () => {
      const bundles = operations.map((op) => ({ name: op.name, output: Object.values(metafile.outputs).find((output) => output.entryPoint === op.handler)! }));
      const leftOut = bundles.flatMap(({ output }) => output.imports.filter((i) => i.external && /^@(aws-sdk|smithy)\//.test(i.path)).map((i) => i.path));
      expect([...new Set(leftOut)]).toEqual([]);
      const inputsOf = (name: string) => Object.keys(bundles.find((bundle) => bundle.name === name)!.output.inputs).join('\n');
      // A message's detail reads the table and links its media: the document client and the S3 client with its presigner.
      expect(inputsOf('GetMessage')).toMatch(/node_modules\/@aws-sdk\/lib-dynamodb\//);
      expect(inputsOf('GetMessage')).toMatch(/node_modules\/@aws-sdk\/client-s3\//);
      expect(inputsOf('GetMessage')).toMatch(/node_modules\/@aws-sdk\/s3-request-presigner\//);
      expect(inputsOf('Health')).not.toMatch(/node_modules\/@aws-sdk\/client-/);
      const sizes = bundles.map(({ name, output }) => [name, output.bytes / 1024] as const).sort(([, a], [, b]) => b - a);
      process.stdout.write(`Function bundles (minified, KB): ${sizes.map(([name, kb]) => `${name} ${kb.toFixed(1)}`).join(', ')}\n`);
    });

    test.each(operations.map((op) => [op.name, op.packageFiles ?? []] as const))(
      '%s loads bundled, with no node_modules to find anything in',
      (name, packageFiles) => {
        for (const file of packageFiles) copyFileSync(join(root, 'node_modules', file), join(outdir, basename(file)));
        const run = spawnSync(
          process.execPath,
          [
            '-e',
            `const nodeStacks = Error.prepareStackTrace;
             if (typeof require(${JSON.stringify(join(outdir, `${name}.js`))}).handler !== 'function') process.exit(3);
             if (process.moduleLoadList.includes('NativeModule stream/web')) process.exit(4);
             if (Error.prepareStackTrace === nodeStacks) process.exit(5);`,
          ],
          {
            cwd: outdir,
            env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1' },
            encoding: 'utf8',
          },
        );
        expect(run.stderr).not.toMatch(/Cannot find module/);
        expect(run.status).toBe(0);
      },
    );
  });
});
