import { resolve } from 'node:path';
import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled (esbuild through NodejsFunction), in one place: the CDK stack
 * and the cold-start benchmark read the same settings, so the measured bundle is the deployed one.
 */
export const bundling = {
  minify: true,
  target: 'node22',
  /** The SDK's ES module builds: esbuild can tree-shake them, not the CommonJS ones (a third smaller). */
  mainFields: ['module', 'main'],
  /**
   * The source map ships beside the bundle, without the sources (file:line is enough), and is
   * read only when a stack is formatted (shared/stack-traces.ts, below): Node.js's
   * `--enable-source-maps`, which no function sets, parses it as the bundle loads.
   */
  sourceMap: true,
  sourcesContent: false,
  /** Run first in every bundle: maps its stacks from that source map when one is formatted (a CommonJS bundle's: it finds the map by `__filename`). */
  inject: [resolve(__dirname, '../shared/stack-traces.ts')],
  /**
   * Nothing is left to the Lambda runtime's own copy of the SDK (NodejsFunction's default leaves
   * out `@aws-sdk/*`): the functions bundle the SDK clients they call, tree-shaken, at the versions
   * of the lock file the tests ran against.
   */
  externalModules: [] as string[],
  /**
   * `@middy/core` imports node:stream/web for streamed responses, which no handler of ours returns,
   * and loading that module cost each HTTP function's cold load about 2.5 ms (docs/performance.md).
   * Its classes are globals too: the stand-in reads them from there when first used.
   */
  alias: { 'node:stream/web': resolve(__dirname, 'lazy-web-streams.cjs') },
};

/**
 * The same settings as esbuild's own build options, for the builds that call esbuild directly
 * (the cold-start benchmark, the bundling tests), as NodejsFunction passes them (CommonJS).
 */
export const esbuildBuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  minify: bundling.minify,
  target: bundling.target,
  mainFields: bundling.mainFields,
  external: bundling.externalModules,
  alias: bundling.alias,
  sourcemap: bundling.sourceMap,
  sourcesContent: bundling.sourcesContent,
  inject: bundling.inject,
} satisfies BuildOptions;
