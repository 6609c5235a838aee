import { addUsage } from '#shared/data/usage';
import type { AdmissionCount } from '#shared/data/rate-window';

/**
 * Handler latencies of answered requests not written yet, by workspace: each is added by the
 * workspace's next usage write from this process. A request is counted by its admission's own
 * write (shared/data/rate-window.ts), so counting adds no call; only a latency waits for a
 * later write (and is lost with the process if none comes).
 */
const carried = new Map<string, { sumMs: number; count: number }>();

function takeCarried(workspaceId: string) {
  const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
  carried.delete(workspaceId);
  return latencies;
}

function carry(workspaceId: string, sumMs: number, count: number) {
  const latencies = carried.get(workspaceId) ?? { sumMs: 0, count: 0 };
  carried.set(workspaceId, { sumMs: latencies.sumMs + sumMs, count: latencies.count + count });
}

/** What an admission of the workspace counts (contract §9): its request, with the latencies carried so far. */
export function admissionCount(workspaceId: string): AdmissionCount {
  const { sumMs, count } = takeCarried(workspaceId);
  return { requests: 1, latencyMsSum: sumMs, latencies: count };
}

/** Carries an admission's latencies again when it did not write them (refused, or failed). */
export function carryBack(workspaceId: string, count: AdmissionCount): void {
  if (count.latencies) carry(workspaceId, count.latencyMsSum, count.latencies);
}

/**
 * Completes a request's usage once it is answered: a counted success only carries its latency
 * to the next write; a counted failure adds itself to the failed ones; a request not counted
 * yet (refused before it was admitted, or one that counts only once answered) adds itself whole.
 */
export function recordAnswer(workspaceId: string, answer: { counted: boolean; successful: boolean; latencyMs: number }): Promise<void> | undefined {
  if (answer.counted && answer.successful) {
    carry(workspaceId, answer.latencyMs, 1);
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
