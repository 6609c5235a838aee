import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Credentials, StackInfo } from '#local/stack-file';
import { readJson } from '#local/stack-file';

const root = resolve(__dirname, '..');

export interface RunningStack {
  /** The stack's process; DynamoDB Local and the SQS emulator are its children. */
  pid: number;
  dir: string;
  stack: StackInfo;
  credentials: Credentials;
  output: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts `npm start`'s program as a child process on free ports with its own data folder, its table
 * in memory and DynamoDB Local's quick JVM (unless `env` sets DYNAMODB_QUICK_JVM), and waits for /health.
 */
export async function startLocalStack(options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<RunningStack> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const dir = mkdtempSync(join(tmpdir(), 'messaging-e2e-'));
  let output = '';
  // Node loads tsx itself, so the stack is one process: tsx's command line would relay SIGTERM and
  // kill the stack (exit 143) when a busy machine makes the relay wait more than 60 ms.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DYNAMODB_QUICK_JVM: 'on',
      ...options.env,
      LOCAL_DIR: dir,
      DYNAMODB_IN_MEMORY: 'on',
      PORT: '0',
      SIMULATOR_PORT: '0',
      DYNAMODB_PORT: '0',
      SQS_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const deadline = Date.now() + timeoutMs;
  const previous = process.env.LOCAL_DIR;
  process.env.LOCAL_DIR = dir;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`local stack exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`local stack not healthy in time:\n${output}`);
      const stack = readJson<StackInfo>('stack.json');
      const health = stack && (await fetch(`${stack.base_url}/health`).catch(() => undefined));
      if (stack && health?.status === 200) {
        return {
          pid: child.pid!,
          dir,
          stack,
          credentials: readJson<Credentials>('credentials.json')!,
          output: () => output,
          stop: async () => {
            child.kill('SIGTERM');
            const code = await exited;
            rmSync(dir, { recursive: true, force: true });
            return code;
          },
        };
      }
      await new Promise((done) => setTimeout(done, 250));
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    process.env.LOCAL_DIR = previous;
  }
}
