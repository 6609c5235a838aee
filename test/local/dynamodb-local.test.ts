import { readdirSync, readFileSync } from 'node:fs';

/** The environment of the process started with `-port <port>`, read from Linux's /proc. */
function environmentOfProcessOn(port: string): Record<string, string> | undefined {
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // ended meanwhile
    }
    const at = args.indexOf('-port');
    if (at < 0 || args[at + 1] !== port) continue;
    const variables = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return Object.fromEntries(variables.map((variable) => [variable.slice(0, variable.indexOf('=')), variable.slice(variable.indexOf('=') + 1)]));
  }
  return undefined;
}

// A process's environment is read from /proc, which only Linux has (CI runs there).
const onLinux = process.platform === 'linux' ? test : test.skip;

describe('DynamoDB Local as the tests and the local stack start it (local/dynamodb.ts)', () => {
  // Tests and benchmarks talk to nothing but localhost; DynamoDB Local would send usage events to AWS by default.
  onLinux('runs with its telemetry off', () => {
    const port = new URL(process.env.DYNAMODB_ENDPOINT!).port;
    const environment = environmentOfProcessOn(port);
    expect(environment).toBeDefined();
    expect(environment!.DDB_LOCAL_TELEMETRY).toBe('0');
  });
});
