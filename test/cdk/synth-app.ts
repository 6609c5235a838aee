import { App, Validations, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '#lib/app';

/**
 * Builds the real app in-process with bundling skipped (fast), optionally with the cdk-nag
 * AwsSolutions pack applied to both stacks and a concrete account/region (as `cdk deploy` has).
 */
export function buildTestApp(options: { nag?: boolean; context?: Record<string, unknown>; env?: Environment } = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...options.context } });
  const stacks = buildApp(app, options.env);
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, ...stacks };
}
