// Installs dependencies when node_modules is missing or older than the lock file, so `npm start`
// and `npm test` work as the first command on a fresh clone. `npm ci` installs exactly the lock
// file, which lists every platform's optional packages, on Node.js 20 and 22 alike.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const quiet = process.argv.includes('--quiet');
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;
if (stale) {
  if (!quiet) console.error('Installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { stdio: quiet ? 'ignore' : ['ignore', 'inherit', 'inherit'] });
}
