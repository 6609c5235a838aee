import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import type { Dashboard } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { createAlarmTopic } from '#lib/monitoring/alarm-topic';
import { createAlarms, type ServiceAlarms } from '#lib/monitoring/alarms';
import { createDashboard } from '#lib/monitoring/dashboard';
import type { MonitoredService } from '#lib/monitoring/monitored-service';

export interface MonitoringStackProps extends NestedStackProps {
  service: MonitoredService;
  /** Subscribed to the alarm topic when set (CDK context `alarmEmail`). */
  alarmEmail?: string;
}

/**
 * The alarms, their SNS topic and the dashboard, in a stack nested in the compute stack.
 *
 * Why nested: an errors and a throttles alarm per function would take the compute stack from
 * 359 resources to about 485 of CloudFormation's 500 per stack, and every new HTTP operation
 * adds nine more; here they count as one resource of the compute stack. Why not a third
 * top-level stack: alarms name the functions, so the compute stack would export every function
 * name, and CloudFormation refuses to change or remove an export in use, which would block
 * removing or replacing a function. A nested stack gets the names as parameters and is deployed
 * with the functions it watches.
 */
export class MonitoringStack extends NestedStack {
  readonly alarmTopic: Topic;
  readonly alarms: ServiceAlarms;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    this.alarmTopic = createAlarmTopic(this, props.alarmEmail);
    this.alarms = createAlarms({ scope: this, action: new SnsAction(this.alarmTopic) }, props.service);
    this.dashboard = createDashboard(this, props.service, this.alarms.serviceAlarms);
  }
}
