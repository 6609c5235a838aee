import { traceInvocation, type InvocationTrace } from '#local/invocation-trace';
import type { FunctionUsage } from '#local/usage-meter';
import { round, type Figure } from './harness';
import { medianOfCounts, usageOfTraces } from './invocations';
import { criticalPathMs, lambdaCpuSlowdown, MODELLED_EXCESS_BUDGET_MS, modelledRequestMs } from './aws-latency-model';

/** Raw operations traced one after another for the baseline's calls and CPU time. */
const TRACED_RAW_OPERATIONS = 50;

/** The raw operation, run TRACED_RAW_OPERATIONS times one after another, each traced as one invocation. */
export async function traceRaw(operation: () => Promise<unknown>): Promise<FunctionUsage> {
  const traces: InvocationTrace[] = [];
  for (let i = 0; i < TRACED_RAW_OPERATIONS; i++) {
    const { trace, outcome } = await traceInvocation(operation);
    if (outcome.status === 'rejected') throw outcome.reason;
    traces.push(trace!);
  }
  return usageOfTraces(traces);
}

/** The key counted most often. */
const mostOften = (counts: Record<string, number>) => Object.entries(counts).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none';

/** The critical path (as the meter names it) of the invocation with the median modelled wait. */
function medianPath(paths: Record<string, number>): { path: string; waitMs: number } {
  const waitMs = medianOfCounts(paths, criticalPathMs);
  return { path: Object.keys(paths).find((path) => criticalPathMs(path) === waitMs) ?? 'none', waitMs };
}

/**
 * Issue 29's counts for one operation, each beside its raw baseline's: DynamoDB calls and depth
 * per request, handler CPU time, and the AWS latency modelled from them (bench/aws-latency-model.ts).
 */
export function callFigures(
  name: string,
  did: FunctionUsage,
  depthBudget: number,
  memoryMb: number,
  localP50: number,
  raw: { name: string; usage: FunctionUsage; p50: number },
): Figure[] {
  const perRequest = (usage: FunctionUsage, n: number) => n / usage.invocations;
  const others = Object.entries(did.calls)
    .filter(([service]) => service !== 'DynamoDB')
    .map(([service, n]) => `${service} ${round(perRequest(did, n))}`);
  const depths = Object.keys(did.dynamodb_depths).map(Number);
  const path = medianPath(did.critical_paths);
  const rawPath = medianPath(raw.usage.critical_paths);
  const cpu = perRequest(did, did.cpu_ms);
  const rawCpu = perRequest(raw.usage, raw.usage.cpu_ms);
  return [
    {
      name: `${name} DynamoDB calls per request (mean of ${did.invocations}; other AWS calls per request: ${others.join(', ') || 'none'})`,
      value: perRequest(did, did.calls.DynamoDB ?? 0),
      unit: 'calls',
      baseline: { name: raw.name, value: perRequest(raw.usage, raw.usage.calls.DynamoDB ?? 0) },
      detail: { calls: did.calls, dynamodb_depths: did.dynamodb_depths, dynamodb_chains: did.dynamodb_chains, critical_paths: did.critical_paths },
    },
    {
      name: `${name} DynamoDB depth per request (median; max ${Math.max(...depths)}; most often ${mostOften(did.dynamodb_chains)})`,
      value: medianOfCounts(did.dynamodb_depths, Number),
      unit: 'calls',
      baseline: { name: raw.name, value: medianOfCounts(raw.usage.dynamodb_depths, Number) },
      budget: { max: depthBudget, of: 'value' },
    },
    {
      name: `${name} handler CPU time per request (mean)`,
      value: cpu,
      unit: 'ms',
      baseline: { name: `${raw.name}, the table client's work in the bench process`, value: rawCpu },
    },
    {
      name: `${name} modelled AWS latency (critical path ${path.path}, ${round(path.waitMs)} ms; CPU ${round(cpu)} ms × ${round(lambdaCpuSlowdown(memoryMb))} at ${memoryMb} MB; measured locally p50 ${round(localP50)} ms)`,
      value: modelledRequestMs(path.waitMs, cpu, memoryMb),
      unit: 'ms',
      baseline: {
        name: `${raw.name} modelled alike, in a function of the same memory (${rawPath.path}; CPU ${round(rawCpu)} ms; measured locally p50 ${round(raw.p50)} ms)`,
        value: modelledRequestMs(rawPath.waitMs, rawCpu, memoryMb),
      },
      // Issue 54: at most one round trip and the CPU of the service's own work above the raw calls.
      budget: { max: MODELLED_EXCESS_BUDGET_MS, of: 'excess' },
    },
  ];
}
