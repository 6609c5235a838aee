import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/** Runs the admin command the way the README shows it, against the stack in `dir`. */
export function runAdmin(dir: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: root, env: { ...process.env, LOCAL_DIR: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}
