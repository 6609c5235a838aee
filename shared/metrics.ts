import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  BusinessMetric,
  CURRENCY_DIMENSION,
  ERROR_CODE_DIMENSION,
  METRICS_NAMESPACE,
  SERVICE_NAME,
  WORKSPACE_DIMENSION,
  type BusinessMetricName,
} from '#shared/metrics-catalog';

/**
 * The business metrics of shared/metrics-catalog.ts in CloudWatch's embedded metric format: JSON
 * lines on stdout that CloudWatch Logs turns into metrics, with no API call. Counts are kept in
 * memory and printed once per invocation by the handler wrappers (publishMetrics); locally the
 * lines are in the process's output. POWERTOOLS_METRICS_DISABLED=true prints nothing (the tests).
 * See docs/metrics.md.
 */
let metrics: Metrics | undefined;

/**
 * Made on the first count rather than at import: Powertools reads POWERTOOLS_METRICS_DISABLED when
 * it is made, and the local runner and the tests set the environment after importing the handlers.
 */
const store = (): Metrics => (metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }));

/** Adds `value` to a count, printed when the invocation ends. */
export function countMetric(name: BusinessMetricName, value = 1): void {
  if (value > 0) store().addMetric(name, MetricUnit.Count, value);
}

/**
 * Messages that ended `failed`, by their error codes (one per message): the total, and per code
 * with the dimension ErrorCode. A per-code count needs its own dimensions, hence its own EMF line,
 * printed at once.
 */
export function countFailedMessages(codes: (string | number)[]): void {
  countMetric(BusinessMetric.MessagesFailed, codes.length);
  const perCode = new Map<string, number>();
  for (const code of codes) perCode.set(String(code), (perCode.get(String(code)) ?? 0) + 1);
  for (const [code, count] of perCode) {
    store().singleMetric().addDimension(ERROR_CODE_DIMENSION, code).addMetric(BusinessMetric.MessagesFailedByCode, MetricUnit.Count, count);
  }
}

/** A billed cost: the amount the platform charged a workspace's message, in its currency. */
export interface Spend {
  workspaceId: string;
  currency: string;
  amount: number;
}

/** Billed costs, summed per workspace and currency (SpendBilled): each sum its own line, printed at once (its own dimensions). */
export function countSpend(billed: Spend[]): void {
  const sums = new Map<string, Spend>();
  for (const spend of billed) {
    const key = `${spend.workspaceId} ${spend.currency}`;
    sums.set(key, { ...spend, amount: (sums.get(key)?.amount ?? 0) + spend.amount });
  }
  for (const { workspaceId, currency, amount } of sums.values()) {
    store()
      .singleMetric()
      .addDimension(WORKSPACE_DIMENSION, workspaceId)
      .addDimension(CURRENCY_DIMENSION, currency)
      .addMetric(BusinessMetric.SpendBilled, MetricUnit.NoUnit, amount);
  }
}

/** Prints the counts kept so far as one EMF line; nothing when there are none (Powertools would print a warning). */
export function publishMetrics(): void {
  if (metrics?.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/** The handler, printing its invocation's metrics when it ends, however it ends. */
export function withMetrics<Args extends unknown[], Result>(handler: (...args: Args) => Promise<Result>): (...args: Args) => Promise<Result> {
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      publishMetrics();
    }
  };
}
