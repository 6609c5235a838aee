import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One job per file: a source file over MAX_LINES lines is doing two, and is split along its seams
 * (CONTRIBUTING.md). Tests, their fixtures and generated code are not held to it.
 */
const MAX_LINES = 300;
const root = join(__dirname, '..', '..');
const SOURCE_FOLDERS = ['bin', 'bench', 'clients', 'functions', 'lib', 'local', 'scripts', 'shared', 'simulator'];
const SKIPPED = new Set(['node_modules', 'dist', 'cdk.out']);
/** Generated from the API document by `npm run openapi`. */
const GENERATED = new Set(['clients/typescript/src/schema.d.ts']);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !GENERATED.has(path) ? [path] : [];
  });
}

describe('source files', () => {
  it(`are at most ${MAX_LINES} lines each`, () => {
    const files = SOURCE_FOLDERS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
