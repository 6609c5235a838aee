import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { SERVICE_NAME } from '#shared/metrics-catalog';
import { bundling } from '#lib/bundling';
import { DEFAULT_MEMORY_MB } from '#lib/function-memory';

export const projectRoot = path.resolve(__dirname, '..');

const { alias, ...esbuildOptions } = bundling;

export interface ServiceFunctionProps {
  /** Handler module relative to the project root; it exports `handler`. */
  handlerModule: string;
  timeout?: Duration;
  memorySize?: number;
  /** Files of npm packages (`package/path`) the handler reads at run time, copied beside its bundle. */
  packageFiles?: string[];
}

/** Bundling hooks that copy package files from the project's node_modules into the bundle's folder. */
function copyingAfterBundling(files: string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => files.map((file) => `cp "${path.posix.join(inputDir, 'node_modules', file)}" "${outputDir}/"`),
  };
}

/** A Lambda function with the service's defaults: one per operation, bundled from TypeScript with esbuild. */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // An explicit log group (instead of the logRetention option) avoids CDK's LogRetention custom-resource Lambda.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      // Stateless stack: logs expire after a month anyway; don't leave orphaned groups behind.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Own role, allowed to write to this log group only (instead of AWSLambdaBasicExecutionRole's logs:* on *).
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const closedMarkets = closedMarketsContext(scope);

    super(scope, id, {
      entry: path.join(projectRoot, props.handlerModule),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? DEFAULT_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      role,
      environment: {
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        // A deployment's own list of markets closed to marketing (CDK context, a JSON array); unset, shared/config.ts has the platform's.
        ...(closedMarkets !== undefined && { CLOSED_MARKETS: JSON.stringify(closedMarkets) }),
      },
      bundling: {
        ...esbuildOptions,
        esbuildArgs: { '--alias': Object.entries(alias).map(([module, standIn]) => `${module}=${standIn}`) },
        format: OutputFormat.CJS,
        ...(props.packageFiles?.length && { commandHooks: copyingAfterBundling(props.packageFiles) }),
      },
    });
  }
}

/** CDK context `closedMarkets`: an array (cdk.json) or its JSON (`-c closedMarkets='["US"]'`). */
function closedMarketsContext(scope: Construct): string[] | undefined {
  const value: unknown = scope.node.tryGetContext('closedMarkets');
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : (value as string[] | undefined);
}
