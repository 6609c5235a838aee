import fs from 'node:fs';
import path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '#lib/app';
import { operations } from '#lib/operations';
import { projectRoot } from '#lib/service-function';

/**
 * Builds the real app in-process with bundling skipped (fast), optionally with the cdk-nag
 * AwsSolutions pack applied to both stacks.
 */
export function buildTestApp(options: { nag?: boolean; context?: Record<string, unknown> } = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...options.context } });
  const stacks = tolerateMissingHandlers(() => buildApp(app));
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, ...stacks };
}

/**
 * NodejsFunction insists that its entry file exists even when bundling is skipped. Handler
 * files are written alongside the stack, so while this runs, operation entries count as present;
 * paths outside the operation list are checked for real.
 */
function tolerateMissingHandlers<T>(build: () => T): T {
  const entries = new Set(operations.map((op) => path.join(projectRoot, op.handler)));
  const writableFs = fs as { existsSync: typeof fs.existsSync };
  const existsSync = writableFs.existsSync;
  writableFs.existsSync = (p) => entries.has(path.resolve(String(p))) || existsSync(p);
  try {
    return build();
  } finally {
    writableFs.existsSync = existsSync;
  }
}
