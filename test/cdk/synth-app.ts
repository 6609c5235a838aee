import { Validations, type Environment } from 'aws-cdk-lib';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildAppWithoutBundling } from '#lib/app';

// Each app synthesizes into a temporary directory that aws-cdk-lib deletes on the process's 'exit',
// which jest's module sandbox never passes on: each suite that builds apps deletes its own as it ends.
afterAll(() => CloudAssembly.cleanupTemporaryDirectories());

/**
 * Builds the real app in-process with bundling skipped (fast), optionally with the cdk-nag
 * AwsSolutions pack applied to both stacks and a concrete account/region (as `cdk deploy` has).
 */
export function buildTestApp(options: { nag?: boolean; context?: Record<string, unknown>; env?: Environment } = {}) {
  const built = buildAppWithoutBundling(options);
  if (options.nag) Validations.of(built.app).addPlugins(new AwsSolutionsChecks(built.app));
  return built;
}
