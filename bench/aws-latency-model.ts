/**
 * What a request would take in AWS, modelled from what it did locally: the calls on its critical
 * path at an assumed latency each, the gateway and Lambda in front, and its CPU time at the share
 * of a vCPU its function's memory buys (the memory the stack deploys it with). The assumptions and
 * their sources: docs/performance.md, "Method".
 */
export const ASSUMED_MS = {
  /** API Gateway HTTP API's own latency. */
  apiGateway: 12,
  /** Lambda invoking a warm function. */
  lambdaInvoke: 2,
  /** One SDK call from a function in the same region, by service; any other service at `otherCall`. */
  call: { DynamoDB: 10, SQS: 10, EventBridge: 20 } as Record<string, number>,
  otherCall: 20,
};

/** Lambda gives a function CPU in proportion to its memory, one vCPU at 1,769 MB; more memory does not speed up one thread. */
export const lambdaCpuSlowdown = (memoryMb: number) => Math.max(1, 1769 / memoryMb);

/**
 * The budget of an operation's modelled latency above its raw calls' (issue 54): one round trip
 * more and the CPU of the service's own work, at the function's memory.
 */
export const MODELLED_EXCESS_BUDGET_MS = 25;

/** The assumed wait of a critical path as the meter names it, `DynamoDB 3, SQS 1` (`none`: no call). */
export function criticalPathMs(path: string): number {
  if (path === 'none') return 0;
  return path.split(', ').reduce((sum, part) => {
    const [service, calls] = [part.slice(0, part.lastIndexOf(' ')), Number(part.slice(part.lastIndexOf(' ') + 1))];
    return sum + calls * (ASSUMED_MS.call[service] ?? ASSUMED_MS.otherCall);
  }, 0);
}

/** A request through API Gateway to a warm function of `memoryMb`: the gateway, the invoke, the critical path's waits, the CPU time. */
export const modelledRequestMs = (criticalPathWaitMs: number, cpuMs: number, memoryMb: number) =>
  ASSUMED_MS.apiGateway + ASSUMED_MS.lambdaInvoke + criticalPathWaitMs + cpuMs * lambdaCpuSlowdown(memoryMb);
