import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CONTRIBUTING.md's recipes are followed step by step, so every path they name must exist: a file moved or renamed
 * fails here until the recipe follows it. A path is a code span's word, or a link's target, that contains a `/` or ends
 * in a file extension of the repository; API routes (`/api/v1/…`), URLs and `#shared/*` aliases are not paths. A path
 * with a placeholder (`functions/<resource>/<verb>.ts`) is checked up to the folder before its first placeholder.
 */
const root = join(__dirname, '..', '..');
const EXTENSIONS = /\.(ts|mjs|cjs|js|json|md)$/;
const WORD = /^[\w.@<>{}*…-]+(\/[\w.@<>{}*…-]*)*$/;

/** The text outside fenced code blocks: their diagrams are not paths. */
const prose = (markdown: string) => markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

function namedPaths(markdown: string): string[] {
  const text = prose(markdown);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target.replace(/#.*$/, ''));
  const words = [...text.replace(/\]\([^)]*\)/g, ']').matchAll(/`([^`]+)`/g)].flatMap(([, span]) => span.split(/\s+/));
  const paths = [...links, ...words]
    .filter((word) => word && WORD.test(word) && !word.startsWith('/') && !/^[a-z]+:/.test(word))
    .filter((word) => word.includes('/') || EXTENSIONS.test(word))
    .map((word) => {
      const segments = word.split('/');
      const placeholder = segments.findIndex((segment) => /[<>{}*…]/.test(segment));
      return (placeholder === -1 ? segments : segments.slice(0, placeholder)).join('/').replace(/\/$/, '');
    })
    .filter(Boolean);
  return [...new Set(paths)].sort();
}

describe('CONTRIBUTING.md', () => {
  const markdown = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const paths = namedPaths(markdown);

  it('has the layout and the three recipes', () => {
    for (const heading of ['## Layout', '## Recipe: a new API operation', '## Recipe: a new kind of platform webhook', '## Recipe: a new outbound event type'])
      expect(markdown).toContain(`\n${heading}\n`);
  });

  it('names paths, in code spans and links alike', () => {
    expect(paths).toEqual(expect.arrayContaining(['shared/service', 'functions/platform-webhooks/process-worker.ts', 'docs/decisions.md', 'functions']));
    expect(paths).not.toContain('api/v1/groups');
  });

  it('names only paths that exist', () => {
    expect(paths.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});

describe('what counts as a path', () => {
  it('takes code spans and link targets, cuts placeholders, and leaves routes, URLs, aliases and code out', () => {
    const markdown = [
      'Run `node scripts/node22.mjs jest test/http/groups.test.ts`; see [the map](docs/data-model.md#records).',
      'Create `functions/<resource>/<verb>.ts` and `shared/domain/<area>/`; call `GET /api/v1/groups/{id}`,',
      "`http('PATCH', '/api/v1/groups/{id}')`, `#shared/*`, [Meta](https://developers.facebook.com/docs), `README.md`.",
      '```',
      'functions  →  shared/nowhere',
      '```',
    ].join('\n');
    expect(namedPaths(markdown)).toEqual(['README.md', 'docs/data-model.md', 'functions', 'scripts/node22.mjs', 'shared/domain', 'test/http/groups.test.ts']);
  });
});
