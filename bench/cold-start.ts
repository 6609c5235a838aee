import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildBuildOptions } from '#lib/bundling';
import { operations } from '#shared/service/operations';
import { sizeReason, splitByPackage, topSources, type Split } from './bundle-split';
import { median, type Figure } from './harness';

const root = resolve(__dirname, '..');
const LOADS = 7;
/** Issue 54: a function's cold load at most this many times the one-call function's (ONE_CALL_HANDLER). */
const COLD_LOAD_BUDGET = 1.5;

/**
 * The least a function that calls AWS loads: one `GetItem` through the service's table client
 * (shared/data/table/client.ts, the SDK's DynamoDBDocumentClient with the service's settings), the
 * baseline of every function's bundle and cold load. Its handler is not run: a cold load ends with the handler found.
 */
const ONE_CALL_HANDLER = `import { db, tableName } from ${JSON.stringify(join(root, 'shared/data/table/client.ts'))};
import { GetCommand } from ${JSON.stringify(join(root, 'shared/data/table/commands.ts'))};
export const handler = async () => (await db().send(new GetCommand({ TableName: tableName(), Key: { PK: 'ONE', SK: 'CALL' } }))).Item ?? null;
`;

/**
 * The bundling of lib/bundling.ts, as NodejsFunction runs it, with its source map beside the
 * bundle as the function ships it: the bundle's size (the map is a file of its own) and where its bytes come from.
 */
async function bundle(entry: string, outfile: string): Promise<{ bytes: number; split: Split }> {
  const { metafile } = await build({ ...esbuildBuildOptions, entryPoints: [entry], outfile, absWorkingDir: root, logLevel: 'error', metafile: true });
  const [, output] = Object.entries(metafile.outputs).find(([file]) => !file.endsWith('.map'))!;
  return { bytes: statSync(outfile).size, split: splitByPackage(output) };
}

/**
 * How Lambda's Node.js runtime starts before it loads a handler, as its runtime interface client
 * does it (github.com/aws/aws-lambda-nodejs-runtime-interface-client, written for the managed
 * runtimes and container images alike):
 * the entry is one ES module bundled with a `require` made by `createRequire` (src/build.js);
 * before the handler it loads the built-ins of its modules, `http` in RAPIDClient's constructor,
 * `net` (ResponseStream), `util` (Errors, LogPatch), `assert` (InvokeContext), `fs` and `path`
 * (UserFunction); then it `require`s a CommonJS handler (UserFunction.js). The client's own code is
 * left out: it is the same before every handler, hello-world's included.
 */
const LAMBDA_RUNTIME_ENTRY = `import { createRequire } from 'module';
const require = createRequire(import.meta.url);
for (const builtin of ['util', 'assert', 'fs', 'path', 'net', 'http']) require(builtin);
const started = performance.now();
const loaded = require(process.argv[2]);
if (typeof loaded.handler !== 'function') process.exit(3);
process.stdout.write(String(performance.now() - started));
`;

/**
 * A fresh Node process started as Lambda's runtime starts (LAMBDA_RUNTIME_ENTRY) until it has the
 * handler and exits: runtime start plus module load and init, what Lambda reports as Init
 * Duration. Also the require() alone, measured inside the process.
 * The functions' environment sets no NODE_OPTIONS (lib/service-function.ts), nor does this.
 */
function coldLoad(file: string, runtimeEntry: string): { processMs: number; requireMs: number } {
  const start = performance.now();
  const run = spawnSync(process.execPath, [runtimeEntry, file], {
    env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  const processMs = performance.now() - start;
  if (run.status !== 0) throw new Error(`loading ${file} failed (${run.status}): ${run.stderr}`);
  return { processMs, requireMs: Number(run.stdout) };
}

const medianOf = (loads: { processMs: number; requireMs: number }[]) => ({
  processMs: median(loads.map((l) => l.processMs)),
  requireMs: median(loads.map((l) => l.requireMs)),
});

/**
 * LOADS cold loads of the function, each right after one of the baseline, and the median of each:
 * the baseline is measured beside every function, so a machine that speeds up or slows down over
 * the minutes of the run moves both alike (one baseline at the start measured 90.7 ms in one run
 * and 130.4 ms in another the same morning).
 */
function pairedLoads(file: string, baselineFile: string, runtimeEntry: string) {
  const pairs = Array.from({ length: LOADS }, () => ({ baseline: coldLoad(baselineFile, runtimeEntry), load: coldLoad(file, runtimeEntry) }));
  return { baseline: medianOf(pairs.map((pair) => pair.baseline)), load: medianOf(pairs.map((pair) => pair.load)) };
}

/**
 * Bundle size of every function and its cold load time, against a function that makes one call
 * with the same SDK client (ONE_CALL_HANDLER), bundled and loaded the same way; that function
 * against a hello-world handler. Sizes are printed without a budget (issue 54).
 */
export async function benchColdStart(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bundles-'));
  try {
    const helloEntry = join(dir, 'hello.js');
    writeFileSync(helloEntry, "exports.handler = async () => ({ statusCode: 200, body: 'hello' });\n");
    const helloFile = join(dir, 'hello.bundle.js');
    const { bytes: helloBytes } = await bundle(helloEntry, helloFile);
    const oneCallEntry = join(dir, 'one-call.ts');
    writeFileSync(oneCallEntry, ONE_CALL_HANDLER);
    const oneCallFile = join(dir, 'one-call.bundle.js');
    const { bytes: oneCallBytes, split: oneCallSplit } = await bundle(oneCallEntry, oneCallFile);
    const runtimeEntry = join(dir, 'lambda-runtime.mjs');
    writeFileSync(runtimeEntry, LAMBDA_RUNTIME_ENTRY);
    const oneCall = pairedLoads(oneCallFile, helloFile, runtimeEntry);
    const figures: Figure[] = [
      {
        name: "one-call function bundle (minified; GetItem through the service's table client)",
        value: oneCallBytes / 1024,
        unit: 'KB',
        baseline: { name: 'hello-world bundle', value: helloBytes / 1024 },
        note: `split: ${topSources(oneCallSplit)}`,
        detail: { split: oneCallSplit },
      },
      {
        name: `one-call function cold load, fresh process started as Lambda's runtime starts (median of ${LOADS}; require alone ${oneCall.load.requireMs.toFixed(1)} ms)`,
        value: oneCall.load.processMs,
        unit: 'ms',
        baseline: {
          name: `hello-world, started the same way before each of its loads (require alone ${oneCall.baseline.requireMs.toFixed(2)} ms)`,
          value: oneCall.baseline.processMs,
        },
      },
    ];
    for (const operation of operations) {
      const outfile = join(dir, `${operation.name}.js`);
      const { bytes, split } = await bundle(join(root, operation.handler), outfile);
      // The package files it reads when it loads, beside the bundle as the stack copies them (lib/service-function.ts).
      for (const file of operation.packageFiles ?? []) copyFileSync(join(root, 'node_modules', file), join(dir, basename(file)));
      const { baseline, load } = pairedLoads(outfile, oneCallFile, runtimeEntry);
      figures.push(
        {
          name: `${operation.name} bundle (minified)`,
          value: bytes / 1024,
          unit: 'KB',
          baseline: { name: 'one-call function bundle', value: oneCallBytes / 1024 },
          // No budget (issue 54): what it is made of and why, in results.json.
          detail: { split, top: topSources(split), reason: sizeReason(split) },
        },
        {
          name: `${operation.name} cold load, fresh process started as Lambda's runtime starts (median of ${LOADS}; require alone ${load.requireMs.toFixed(1)} ms)`,
          value: load.processMs,
          unit: 'ms',
          baseline: {
            name: `one-call function, started the same way before each of its loads (require alone ${baseline.requireMs.toFixed(1)} ms)`,
            value: baseline.processMs,
          },
          budget: { max: COLD_LOAD_BUDGET, of: 'ratio' },
        },
      );
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
