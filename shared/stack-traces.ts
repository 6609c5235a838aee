import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';

/**
 * Stack traces of a deployed function name its TypeScript sources, from the source map that
 * ships beside its bundle, read the first time a stack is formatted. Node.js's own
 * `--enable-source-maps` reads and parses the map while the bundle loads: 5–10 ms of every cold
 * start, for a map most sandboxes never use (docs/performance.md).
 */

/** The bundle this code runs in: a bundled module's `__filename` is the bundle's (a CommonJS bundle's; an ES module has none, and nothing is mapped). */
const bundle = typeof __filename === 'string' ? __filename : undefined;
const mapFile = `${bundle}.map`;

/** The bundle's source map once read; null when it could not be read (frames then stay as they are). */
let bundleMap: SourceMap | null | undefined;

function sourceMap(): SourceMap | null {
  if (bundleMap === undefined) {
    try {
      bundleMap = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload);
    } catch {
      bundleMap = null;
    }
  }
  return bundleMap;
}

/** A source as the map names it, relative to the directory the bundle was built in (`../../shared/logger.ts`), as a path in the repository. */
const repositoryPath = (source: string) => source.replace(/^(\.\.\/)+/, '');

/** Where a position of the bundle comes from: `shared/logger.ts:12:5`, and the name the map gives there. */
function origin(map: SourceMap, line: number | null, column: number | null): { at: string; name?: string } | undefined {
  if (line === null || column === null) return undefined;
  const found = map.findOrigin(line, column);
  if (!('fileName' in found)) return undefined;
  return { at: `${repositoryPath(found.fileName)}:${found.lineNumber}:${found.columnNumber}`, name: found.name };
}

/**
 * The function's name in the source: the map's name where the function begins, else where its
 * caller calls it (esbuild names the renamed identifiers, as Node.js reads them too).
 */
function sourceName(map: SourceMap, site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string | undefined {
  const own = origin(map, site.getEnclosingLineNumber(), site.getEnclosingColumnNumber())?.name;
  if (own || !caller || caller.getFileName() !== bundle) return own;
  return origin(map, caller.getLineNumber(), caller.getColumnNumber())?.name;
}

/**
 * One frame, as V8 writes it, with a position in the bundle replaced by its source's and the
 * function's name there, as Node.js's own source-map support writes a mapped frame (the map's
 * name stands alone, without V8's receiver type).
 */
function frame(site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string {
  const map = site.getFileName() === bundle ? sourceMap() : null;
  const position = map && origin(map, site.getLineNumber(), site.getColumnNumber());
  if (!map || !position) return String(site);
  const name = sourceName(map, site, caller) ?? site.getFunctionName() ?? '<anonymous>';
  return `${site.isAsync() ? 'async ' : ''}${site.isConstructor() ? 'new ' : ''}${name} (${position.at})`;
}

/** The error's first line, as V8 writes it; a placeholder when its name or message cannot be read. */
function header(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** The stack, each frame of the bundle mapped; its frames as V8 writes them should the mapping fail (formatting a stack must not throw). */
function formatted(error: Error, sites: NodeJS.CallSite[]): string {
  try {
    return header(error) + sites.map((site, i) => `\n    at ${frame(site, sites[i + 1])}`).join('');
  } catch {
    return header(error) + sites.map((site) => `\n    at ${site}`).join('');
  }
}

// Injected into every function's bundle (lib/bundling.ts): from its first line on, the stacks of
// the bundle's errors name their sources, when its map is beside it and Node.js is not mapping
// them itself. Elsewhere (the local stack and the tests run the TypeScript sources) nothing changes.
if (bundle && !process.sourceMapsEnabled && existsSync(mapFile)) Error.prepareStackTrace = formatted;
