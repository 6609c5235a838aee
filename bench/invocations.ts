import { countTrace, emptyFunctionUsage as none, type FunctionUsage, type Usage } from '#local/usage-meter';
import type { InvocationTrace } from '#local/invocation-trace';

const minus = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([key, n]) => [key, n - (before[key] ?? 0)])
      .filter(([, n]) => n !== 0),
  );

/** What a function's invocations did between two readings of the meter. */
export function functionUsageBetween(before: Usage, after: Usage, name: string): FunctionUsage {
  const [a, b] = [after.lambda[name] ?? none(), before.lambda[name] ?? none()];
  return {
    invocations: a.invocations - b.invocations,
    records: a.records - b.records,
    ms: a.ms - b.ms,
    calls: minus(a.calls, b.calls),
    dynamodb_depths: minus(a.dynamodb_depths, b.dynamodb_depths),
    dynamodb_chains: minus(a.dynamodb_chains, b.dynamodb_chains),
    critical_paths: minus(a.critical_paths, b.critical_paths),
    cpu_ms: a.cpu_ms - b.cpu_ms,
  };
}

/** The sum of every function's usage between two readings. */
export function allFunctionsBetween(before: Usage, after: Usage): FunctionUsage {
  const total = none();
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
  };
  for (const name of Object.keys(after.lambda)) {
    const did = functionUsageBetween(before, after, name);
    total.invocations += did.invocations;
    total.records += did.records;
    total.ms += did.ms;
    total.cpu_ms += did.cpu_ms;
    add(total.calls, did.calls);
    add(total.dynamodb_depths, did.dynamodb_depths);
    add(total.dynamodb_chains, did.dynamodb_chains);
    add(total.critical_paths, did.critical_paths);
  }
  return total;
}

/** The median of counted values (`counts[key]` invocations had the value `valueOf(key)`). */
export function medianOfCounts(counts: Record<string, number>, valueOf: (key: string) => number): number {
  const sorted = Object.entries(counts)
    .map(([key, n]) => ({ value: valueOf(key), n }))
    .sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, { n }) => sum + n, 0);
  let seen = 0;
  for (const { value, n } of sorted) if ((seen += n) >= total / 2) return value;
  return 0;
}

/** The sum of counted values, e.g. of every invocation's DynamoDB depth. */
export const sumOfCounts = (counts: Record<string, number>) => Object.entries(counts).reduce((sum, [key, n]) => sum + Number(key) * n, 0);

/** The usage of traced invocations in this process (a baseline's raw calls), counted as the stack's meter counts them. */
export function usageOfTraces(traces: InvocationTrace[]): FunctionUsage {
  const usage = none();
  for (const trace of traces) {
    usage.invocations++;
    countTrace(usage, trace);
  }
  return usage;
}
