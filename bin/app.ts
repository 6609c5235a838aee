import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '#lib/app';

const app = new App();
buildApp(app, {
  // Environment-agnostic unless the CLI knows an account/region, so `cdk synth` works offline.
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION,
});
// cdk-nag 3 is a CDK policy-validation plugin (not an Aspect): unacknowledged findings fail synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
