// Installs dependencies when node_modules is missing or older than the lock file,
// so `npm start` and `npm test` work as the first command on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const quiet = process.argv.includes('--quiet');
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs;
// `npm install` rather than `npm ci`: npm 11 refuses `ci` for this lock file (it omits the
// other platforms' optional @unrs/resolver-binding-* packages jest pulls in), while `install`
// installs the locked versions.
if (stale) {
  if (!quiet) console.error('Installing dependencies (npm install)…');
  execSync('npm install --no-audit --no-fund', { stdio: quiet ? 'ignore' : ['ignore', 'inherit', 'inherit'] });
}
