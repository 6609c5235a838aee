import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, waitForHttp } from '#local/ports';

export interface SqsEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** Whether the server at `endpoint` answers an SQS call: a free port found earlier may have been taken by another suite's server since. */
async function answersAsSqs(endpoint: string): Promise<boolean> {
  try {
    const reply = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'AmazonSQS.ListQueues' },
      body: '{}',
    });
    return reply.ok;
  } catch {
    return false;
  }
}

/** Starts fauxqs on `port` (its process, and whether it is the one answering there). */
async function startOn(port: number): Promise<SqsEmulator | undefined> {
  // fauxqs 2 keeps its state in node:sqlite, which Node 22 flags as experimental on every start.
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', resolve(__dirname, '../node_modules/fauxqs/dist/cli.js')], {
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_HOST: 'localhost', FAUXQS_LOGGER: 'false' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill();
    await exited;
  };
  const started = await Promise.race([waitForHttp(`${endpoint}/health`, 30_000).then(() => true), exited.then(() => false)]);
  if (started && child.exitCode === null && (await answersAsSqs(endpoint))) return { endpoint, stop };
  await stop();
  return undefined;
}

/**
 * Starts fauxqs, an SQS- and S3-compatible emulator (one port for both), as a child process (it
 * ships as ESM only, so it runs beside us, not inside), on `port`, or with `'any'` on a free
 * port, another if a parallel suite's server takes the one found before fauxqs binds it.
 */
export async function startSqsEmulator(port: number | 'any'): Promise<SqsEmulator> {
  for (let attempt = 0; attempt < (port === 'any' ? 3 : 1); attempt++) {
    const emulator = await startOn(port === 'any' ? await freePort() : port);
    if (emulator) return emulator;
  }
  throw new Error(`The SQS emulator did not start${port === 'any' ? '' : ` on port ${port}`}: it exited, or another server answers there`);
}
