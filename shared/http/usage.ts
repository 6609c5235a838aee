import { addUsage } from '#shared/data/usage';

/**
 * Handler latencies of answered requests not written yet, by workspace: each is added by the
 * workspace's next usage write from this process. The count itself is written alongside the
 * handler's work, not after the answer, so it adds no round trip to the request; only a
 * latency can wait for a later write (and is lost with the process if none comes).
 */
const carried = new Map<string, { sumMs: number; count: number }>();

function takeCarried(workspaceId: string) {
  const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
  carried.delete(workspaceId);
  return latencies;
}

/** Counts an admitted request of the workspace (contract §9) while it is handled, with the latencies carried so far. */
export function countRequest(workspaceId: string): Promise<void> {
  const { sumMs, count } = takeCarried(workspaceId);
  return addUsage(workspaceId, { requests: 1, failed: 0, latencyMsSum: sumMs, latencies: count });
}

/**
 * Completes a request's usage once it is answered: a counted success only carries its latency
 * to the next write; a counted failure adds itself to the failed ones; a request not counted
 * yet (refused before it was admitted, or one that counts only once answered) adds itself whole.
 */
export function recordAnswer(workspaceId: string, answer: { counted: boolean; successful: boolean; latencyMs: number }): Promise<void> | undefined {
  if (answer.counted && answer.successful) {
    const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
    carried.set(workspaceId, { sumMs: latencies.sumMs + answer.latencyMs, count: latencies.count + 1 });
    return undefined;
  }
  const { sumMs, count } = takeCarried(workspaceId);
  return addUsage(workspaceId, {
    requests: answer.counted ? 0 : 1,
    failed: answer.successful ? 0 : 1,
    latencyMsSum: sumMs + answer.latencyMs,
    latencies: count + 1,
  });
}
