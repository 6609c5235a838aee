import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '#local/ports';
import { startLocalStack, type RunningStack } from '#local/spawn-stack';

const root = resolve(__dirname, '../..');

/** `npm run smoke` as docs/deploy.md shows it. */
function smoke(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', 'smoke', '--', ...args], { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => done({ code, output }));
  });
}

let local: RunningStack;
let stopped = false;

beforeAll(async () => {
  local = await startLocalStack();
}, 120_000);
afterAll(async () => {
  if (!stopped) await local?.stop();
});

describe('npm run smoke against npm start', () => {
  it('passes every check, a real send and a signed webhook delivery included', async () => {
    const { code, output } = await smoke(['--url', local.stack.base_url, '--key', local.credentials.api_key, '--to', '14155550199']);
    expect(output).toContain('7 checks passed');
    for (const check of ['health', 'API reference', 'keys', 'templates', 'numbers', 'webhook', 'send'])
      expect(output).toMatch(new RegExp(`^ok +${check} `, 'm'));
    expect(output).toContain('signature verified');
    expect(output).toMatch(/message \S+ (sent|delivered|read)/);
    expect(code).toBe(0);
  }, 90_000);

  it('fails with one clear line for a wrong key', async () => {
    const { code, output } = await smoke(['--url', local.stack.base_url, '--key', 'sk_live_not-a-key-of-this-deployment-000000']);
    expect(output).toMatch(/^FAIL {2}keys +the API key was refused \(401 unauthorized\): check --key$/m);
    expect(code).toBe(1);
  }, 60_000);

  it('fails with one clear line for a wrong URL', async () => {
    const { code, output } = await smoke(['--url', `http://127.0.0.1:${await freePort()}`, '--key', local.credentials.api_key]);
    expect(output).toMatch(/^FAIL {2}health +cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/m);
    expect(output).toContain('1 of 1 checks failed');
    expect(code).toBe(1);
  }, 60_000);

  it('fails with one clear line against the stack once stopped', async () => {
    const url = local.stack.base_url;
    await local.stop();
    stopped = true;
    const { code, output } = await smoke(['--url', url, '--key', local.credentials.api_key]);
    expect(output).toMatch(/^FAIL {2}health +cannot reach http:\/\/localhost:\d+: ECONNREFUSED$/m);
    expect(code).toBe(1);
  }, 60_000);
});
