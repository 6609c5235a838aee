import { Aws } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { SERVICE_NAME } from '#shared/metrics-catalog';

/**
 * The topic every alarm notifies; `alarmEmail` (CDK context) subscribes an address to it. Not
 * KMS-encrypted: it carries alarm names, states and thresholds, no customer data, and CloudWatch
 * cannot publish under SNS's AWS-managed key, so encryption would take a customer-managed key
 * (a monthly charge, a key policy for CloudWatch) protecting nothing confidential.
 */
export function createAlarmTopic(scope: Construct, alarmEmail: string | undefined): Topic {
  const topic = new Topic(scope, 'AlarmTopic', { displayName: 'Messaging API alarms', enforceSSL: true });
  // enforceSSL gives the topic a policy of its own, which replaces SNS's default one under which
  // this account's alarms could publish: allow them again, this service's alarms only.
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AllowServiceAlarms',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${SERVICE_NAME}-*` },
      },
    }),
  );
  if (alarmEmail) topic.addSubscription(new EmailSubscription(alarmEmail));
  return topic;
}
