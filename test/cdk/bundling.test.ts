import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { bundling, esbuildBuildOptions } from '#lib/bundling';
import { operations } from '#shared/service/operations';

const root = resolve(__dirname, '../..');

/**
 * lib/bundling.ts leaves some SDK modules out of every bundle, on the promise that a Lambda
 * function never loads them. Bundled that way and run where those modules cannot be found, a
 * client must still load and take its credentials from the environment, as Lambda provides them.
 */
describe('function bundling', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'bundling-test-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a bundled client resolves Lambda credentials from the environment without the modules left out', async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
       new DynamoDBClient({ region: 'eu-west-1' }).config.credentials().then((c) => process.stdout.write(c.accessKeyId));`,
    );
    const outfile = join(dir, 'bundle.js');
    await build({ ...esbuildBuildOptions, entryPoints: [entry], outfile, nodePaths: [join(root, 'node_modules')], logLevel: 'error' });

    const run = spawnSync(process.execPath, [outfile], {
      cwd: dir, // no node_modules up from here: a require() of a left-out module would fail
      env: { PATH: process.env.PATH, AWS_ACCESS_KEY_ID: 'ASIATESTLAMBDAKEY', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' },
      encoding: 'utf8',
    });
    expect(run.stderr).not.toMatch(/Cannot find module/);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('ASIATESTLAMBDAKEY');
  });

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
    beforeAll(async () => {
      outdir = join(dir, 'functions');
      await build({
        ...esbuildBuildOptions,
        entryPoints: Object.fromEntries(operations.map((op) => [op.name, join(root, op.handler)])),
        outdir,
        absWorkingDir: root,
        logLevel: 'error',
      });
    }, 120_000);

    test.each(operations.map((op) => [op.name, op.packageFiles ?? []] as const))(
      '%s loads bundled where the left-out modules cannot be found',
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
