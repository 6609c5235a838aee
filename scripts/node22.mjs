// Runs a command on Node.js 22 or later, the functions' Lambda runtime: `node scripts/node22.mjs <command> [args…]`.
// On an older Node it installs Node.js 22 from the npm registry (the node-<os>-<arch> package ships
// the binary) into node_modules/.cache, once, and puts it first on the command's PATH, so the
// command and every `node` it starts (tsc, jest and its workers, tsx, child processes) run on 22.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAJOR = 22;
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

function nodeBinDirectory() {
  if (Number(process.versions.node.split('.')[0]) >= MAJOR) return undefined;
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${os}-${process.arch}`;
  const prefix = join(projectRoot, 'node_modules', '.cache', `node${MAJOR}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin');
  if (!existsSync(join(bin, process.platform === 'win32' ? 'node.exe' : 'node'))) {
    console.error(`Node.js ${process.versions.node} is older than the Lambda runtime: installing Node.js ${MAJOR} (${pkg}@${MAJOR}) from the npm registry…`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${MAJOR}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return bin;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/node22.mjs <command> [args…]');
  process.exit(2);
}
const bin = nodeBinDirectory();
const env = bin ? { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` } : process.env;
const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
// A stop asked of this process (Ctrl-C, SIGTERM from a supervisor) is the command's to handle: `npm start` stops its children.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  console.error(`${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
