import { Validations, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildAppWithoutBundling } from '#lib/app';

/**
 * Builds the real app in-process with bundling skipped (fast), optionally with the cdk-nag
 * AwsSolutions pack applied to both stacks and a concrete account/region (as `cdk deploy` has).
 */
export function buildTestApp(options: { nag?: boolean; context?: Record<string, unknown>; env?: Environment } = {}) {
  const built = buildAppWithoutBundling(options);
  if (options.nag) Validations.of(built.app).addPlugins(new AwsSolutionsChecks(built.app));
  return built;
}
