import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { createAlarmTopic } from '#lib/monitoring/alarm-topic';
import { createAlarms, type ServiceAlarms } from '#lib/monitoring/alarms';
import { createDashboard } from '#lib/monitoring/dashboard';
import type { MonitoredService } from '#lib/monitoring/monitored-service';
import type { MonitoringLevel } from '#lib/monitoring/monitoring-level';

export interface MonitoringStackProps extends NestedStackProps {
  service: MonitoredService;
  /** Subscribed to the alarm topic when set (CDK context `alarmEmail`). */
  alarmEmail?: string;
  /** CDK context `monitoring`: `essential` alarms only, or `full` with the dashboard. */
  level: MonitoringLevel;
}

/**
 * The alarms, their SNS topic and (at the `full` level) the dashboard, in a stack nested in the compute stack.
 *
 * Why nested: an errors and a throttles alarm per function add two resources per operation, on
 * top of the about 7 of each HTTP operation, to the stack that holds them, and CloudFormation
 * refuses more than 500 per stack; here they count as one resource of the compute stack (whose
 * functions are in the areas' nested stacks, lib/areas.ts). Why not a third top-level stack:
 * alarms name the functions, so the compute stack would export every function name, and
 * CloudFormation refuses to change or remove an export in use, which would block removing or
 * replacing a function. A nested stack gets the names as parameters (the compute stack passes
 * them on from the areas' stacks' outputs) and is deployed with the functions it watches.
 */
export class MonitoringStack extends NestedStack {
  readonly alarmTopic: Topic;
  readonly alarms: ServiceAlarms;
  readonly dashboard?: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    this.alarmTopic = createAlarmTopic(this, props.alarmEmail);
    this.alarms = createAlarms({ scope: this, action: new SnsAction(this.alarmTopic) }, props.service, props.level);
    if (props.level === 'full') this.dashboard = createDashboard(this, props.service, this.alarms.serviceAlarms);
  }
}
