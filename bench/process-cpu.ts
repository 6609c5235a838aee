import { readdirSync, readFileSync } from 'node:fs';

/** The processes a local stack runs as, each a share of the machine's two cores. */
export type StackProcess = 'DynamoDB Local' | 'stack' | 'SQS emulator';

/** Linux's clock ticks per second, the unit of /proc/{pid}/stat's CPU times (USER_HZ, 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

function cpuMsOf(pid: number): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

function kindOf(pid: number): StackProcess {
  const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
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
