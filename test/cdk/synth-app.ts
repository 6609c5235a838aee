import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '#lib/app';

/**
 * Builds the real app in-process with bundling skipped (fast), optionally with the cdk-nag
 * AwsSolutions pack applied to both stacks.
 */
export function buildTestApp(options: { nag?: boolean; context?: Record<string, unknown> } = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...options.context } });
  const stacks = buildApp(app);
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, ...stacks };
}
