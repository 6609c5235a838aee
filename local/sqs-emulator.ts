import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { waitForHttp } from '#local/ports';

export interface SqsEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts fauxqs, an SQS- and S3-compatible emulator (one port for both), as a child process (it ships as ESM only, so it runs beside us, not inside). */
export async function startSqsEmulator(port: number): Promise<SqsEmulator> {
  // fauxqs 2 keeps its state in node:sqlite, which Node 22 flags as experimental on every start.
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', resolve(__dirname, '../node_modules/fauxqs/dist/cli.js')], {
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_HOST: 'localhost', FAUXQS_LOGGER: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitForHttp(`${endpoint}/health`, 30_000),
    exited.then(() => {
      throw new Error('The SQS emulator exited during start-up');
    }),
  ]);
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode === null) child.kill();
      await exited;
    },
  };
}
