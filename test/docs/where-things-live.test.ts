import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The "Where things live" map of CONTRIBUTING.md names every folder of the tree, so a new one cannot be left out of it. */
const root = join(__dirname, '..', '..');
const UNTRACKED = new Set(['node_modules', 'cdk.out', '.local', 'coverage', '.git', 'test-artifacts']);

function mapText(): string {
  const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const start = contributing.indexOf('### Where things live');
  const end = contributing.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(-1);
  return contributing.slice(start, end === -1 ? undefined : end);
}

/** The paths the map's table names in code spans: `shared/data/`, `shared/config.ts`, `bin/`, `lib/`. */
function mappedPaths(map: string): Set<string> {
  const paths = new Set<string>();
  for (const row of map.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1];
    for (const [, path] of firstCell.matchAll(/`([^`]+)`/g)) paths.add(path.replace(/\/$/, '').replace(/\/<[^>]+>.*$/, ''));
  }
  return paths;
}

const entries = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => !UNTRACKED.has(entry.name))
    .map((entry) => (dir ? `${dir}/${entry.name}` : entry.name));

describe('the "where things live" map', () => {
  const mapped = mappedPaths(mapText());

  it('has a row for every top-level folder', () => {
    const folders = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !UNTRACKED.has(entry.name))
      .map((entry) => entry.name);
    const isMapped = (folder: string) => mapped.has(folder) || [...mapped].some((path) => path.startsWith(`${folder}/`));
    expect(folders.filter((folder) => !isMapped(folder))).toEqual([]);
  });

  it('has a row for every folder and module at the root of shared/', () => {
    expect(entries('shared').filter((path) => !mapped.has(path))).toEqual([]);
  });

  it('names nothing that no longer exists', () => {
    const missing = [...mapped].filter((path) => {
      try {
        readdirSync(join(root, path));
        return false;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ENOENT';
      }
    });
    expect(missing).toEqual([]);
  });
});
