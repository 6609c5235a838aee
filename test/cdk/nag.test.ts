import fs from 'node:fs';
import path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildTestApp } from './synth-app';

/**
 * cdk-nag 3 is a CDK policy-validation plugin, not an Aspect: findings no longer appear as
 * Annotations. In-process, synth throws with the report as message when any finding (error or
 * warning) is not acknowledged, and the cloud assembly holds validation-report.json.
 */
describe('cdk-nag AwsSolutions', () => {
  test('both stacks synthesize with no unacknowledged finding', () => {
    const { app } = buildTestApp({ nag: true });
    const assembly = app.synth();
    const report = JSON.parse(fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports.flatMap((r: { violations?: unknown[] }) => r.violations ?? [])).toEqual([]);
  });

  // With credentials, bin/app.ts passes the account and region: acknowledgments that name a resource
  // (e.g. the campaign-* schedules) must still match.
  test('no unacknowledged finding either with a concrete account and region', () => {
    const { app } = buildTestApp({ nag: true, env: { account: '123456789012', region: 'eu-west-1' } });
    const assembly = app.synth();
    const report = JSON.parse(fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'));
    expect(report.pluginReports.flatMap((r: { violations?: unknown[] }) => r.violations ?? [])).toEqual([]);
  });

  test('the check is live in this setup: an unacknowledged finding fails synth', () => {
    const app = new App();
    new Secret(new Stack(app, 'Probe'), 'Secret');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SMG4/);
  });
});
