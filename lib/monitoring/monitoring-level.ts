import type { App } from 'aws-cdk-lib';

/**
 * How much monitoring a deployment pays for (CDK context `monitoring`, docs/deploy.md "What it
 * costs"): `essential` (the default) keeps the alarms that page someone, at about $1.80 a month;
 * `full` adds an errors and a throttles alarm per function, the platform-throttle and
 * paused-number alarms, and the dashboard (about $20 a month more).
 */
export const MONITORING_LEVELS = ['essential', 'full'] as const;
export type MonitoringLevel = (typeof MONITORING_LEVELS)[number];

export function monitoringLevel(app: App): MonitoringLevel {
  const value: unknown = app.node.tryGetContext('monitoring') ?? 'essential';
  const level = MONITORING_LEVELS.find((known) => known === value);
  if (!level) throw new Error(`Context "monitoring" must be one of ${MONITORING_LEVELS.join(', ')}; got ${JSON.stringify(value)}`);
  return level;
}
