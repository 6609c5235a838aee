import { readdirSync, readFileSync } from 'node:fs';

/** The processes a local stack runs as, each a share of the machine's two cores. */
export type StackProcess = 'DynamoDB Local' | 'stack' | 'SQS emulator';

/** Linux's clock ticks per second, the unit of /proc/{pid}/stat's CPU times (USER_HZ, 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/** A file of /proc, or undefined once its process or thread has ended (the JVM starts and ends threads of its own). */
function procFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return undefined;
    throw error;
  }
}

function cpuMsOf(pid: number): number {
  const stat = procFile(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // The fields after the command's closing parenthesis (a command may hold one): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => (procFile(`/proc/${pid}/task/${task}/children`) ?? '').split(' ').filter(Boolean).map(Number));
}

function kindOf(pid: number): StackProcess {
  const command = procFile(`/proc/${pid}/cmdline`) ?? '';
  if (command.includes('DynamoDBLocal')) return 'DynamoDB Local';
  if (command.includes('fauxqs')) return 'SQS emulator';
  return 'stack';
}

/**
 * CPU time used so far by the local stack's process and every process under it, by kind, in ms
 * (Linux's /proc). The benchmark's own process is `process.cpuUsage()`.
 */
export function stackCpuMs(stackPid: number): Record<StackProcess, number> {
  const used: Record<StackProcess, number> = { 'DynamoDB Local': 0, stack: 0, 'SQS emulator': 0 };
  const visit = (pid: number) => {
    used[kindOf(pid)] += cpuMsOf(pid);
    for (const child of childrenOf(pid)) visit(child);
  };
  visit(stackPid);
  return used;
}
