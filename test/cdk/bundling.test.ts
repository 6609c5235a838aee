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
 * node_modules beside it, maps its stacks from its source map, and carries none of the SDK's
 * clients (the service calls AWS through shared/aws/json-protocol.ts).
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

    // 180-260 KB of each bundle and most of its cold load when they were (docs/performance.md). The signer's few utilities
    // (base64, UTF-8, URI escaping, from @smithy/core's serde and transport) and the marshaller of @aws-sdk/util-dynamodb stay.
    const SDK_CLIENT_MACHINERY =
      /node_modules\/(@aws-sdk\/(client-|lib-dynamodb|core|credential-provider|middleware-)|@smithy\/(smithy-client|node-http-handler|middleware-)|@smithy\/core\/dist-es\/submodules\/(retry|endpoints|schema|config|checksum)\/)/;
    test('none carries an SDK client or the machinery of one', () => {
      const sdkModules = Object.values(metafile.outputs)
        .filter((output) => output.entryPoint)
        .flatMap((output) => Object.keys(output.inputs))
        .filter((input) => SDK_CLIENT_MACHINERY.test(input));
      expect([...new Set(sdkModules)]).toEqual([]);
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
