// The static checks `npm test` runs before jest, side by side: each is one process that mostly
// keeps about one core busy (tsc 20 s, the typed lint 35 s on two cores), so run together they end
// in about the time of the slowest. Each one's output is printed whole when it ends; any failure fails.
import { execFileSync, spawn } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKS = {
  types: ['tsc', '--noEmit'],
  layers: ['depcruise', ...'shared functions lib bin local simulator bench scripts test clients'.split(' '), '--config', '.dependency-cruiser.cjs'],
  lint: ['eslint', '.'],
  format: ['biome', 'format', '.'],
};

const node22 = fileURLToPath(new URL('./node22.mjs', import.meta.url));
// The project's own tools, as `npm run` finds them, also when this script is run directly.
const PATH = `${fileURLToPath(new URL('../node_modules/.bin', import.meta.url))}${delimiter}${process.env.PATH}`;
const only = process.argv.slice(2);
const selected = Object.entries(CHECKS).filter(([name]) => only.length === 0 || only.includes(name));

// Node.js 22 is installed once first (node22.mjs installs it on an older Node), not by four processes at once.
execFileSync(process.execPath, [node22, 'node', '--version'], { stdio: ['ignore', 'ignore', 'inherit'] });

const results = await Promise.all(
  selected.map(
    ([name, command]) =>
      new Promise((done) => {
        let output = '';
        const child = spawn(process.execPath, [node22, ...command], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH } });
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('close', (code) => {
          process.stdout.write(`── ${name} (${command.join(' ')}): ${code === 0 ? 'ok' : `failed, exit ${code}`}\n${output}`);
          done(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
