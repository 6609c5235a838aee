import type { Duration } from 'aws-cdk-lib';
import { Metric, SearchExpression, Stats } from 'aws-cdk-lib/aws-cloudwatch';
import {
  BusinessMetric,
  CURRENCY_DIMENSION,
  ERROR_CODE_DIMENSION,
  METRICS_NAMESPACE,
  SERVICE_NAME,
  WORKSPACE_DIMENSION,
  type BusinessMetricName,
} from '#shared/metrics-catalog';

/** Powertools Metrics' default dimension, which the functions set to SERVICE_NAME. */
const SERVICE_DIMENSION = 'service';

/** One of the catalog's counts, summed over `period`, as the functions emit it. */
export function businessMetric(name: BusinessMetricName, period: Duration, label?: string): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME },
    statistic: Stats.SUM,
    period,
    label,
  });
}

/**
 * A metric of the catalog, one line per value of its own dimensions: those values are only known
 * at run time, so a search finds them (dashboards only: alarms cannot use a search).
 */
function perDimension(name: BusinessMetricName, dimensions: string[], period: Duration): SearchExpression {
  const schema = `{${[METRICS_NAMESPACE, SERVICE_DIMENSION, ...dimensions].join(',')}}`;
  const filter = `MetricName="${name}" ${SERVICE_DIMENSION}="${SERVICE_NAME}"`;
  return new SearchExpression({ expression: `SEARCH('${schema} ${filter}', 'Sum', ${period.toSeconds()})`, period, label: '' });
}

/** MessagesFailedByCode, one line per error code. */
export const failuresByCode = (period: Duration): SearchExpression => perDimension(BusinessMetric.MessagesFailedByCode, [ERROR_CODE_DIMENSION], period);

/** SpendBilled, one line per workspace and currency. */
export const spendByWorkspace = (period: Duration): SearchExpression =>
  perDimension(BusinessMetric.SpendBilled, [WORKSPACE_DIMENSION, CURRENCY_DIMENSION], period);
