/**
 * How every function is bundled (esbuild through NodejsFunction), in one place: the CDK stack
 * and the cold-start benchmark read the same settings, so the measured bundle is the deployed one.
 */
export const bundling = {
  minify: true,
  target: 'node22',
  /** The SDK's ES module builds: esbuild can tree-shake them, not the CommonJS ones (a third smaller). */
  mainFields: ['module', 'main'],
  /**
   * Loaded only through dynamic import() on paths a Lambda function never takes, left out of the
   * bundle: credential sources other than the environment (Lambda puts the role's credentials
   * there, the first source the default chain tries) and the event-stream codec (no DynamoDB,
   * SQS, EventBridge or Scheduler call we make streams; the S3 client loads it at start, so
   * functions using the media bucket keep it: `externalModulesFor`). Should one ever be reached,
   * its import() fails with ERR_MODULE_NOT_FOUND: loudly, never with other credentials.
   */
  externalModules: [
    '@aws-sdk/credential-provider-http',
    '@aws-sdk/credential-provider-ini',
    '@aws-sdk/credential-provider-login',
    '@aws-sdk/credential-provider-process',
    '@aws-sdk/credential-provider-sso',
    '@aws-sdk/credential-provider-web-identity',
    '@aws-sdk/nested-clients',
    '@aws-sdk/token-providers',
    '@smithy/credential-provider-imds',
    '@smithy/core/event-streams',
  ],
};

/** The S3 client requires the event-stream codec when it loads, not on a call: left out, the function would fail at start. */
const LOADED_BY_S3 = '@smithy/core/event-streams';

/** The modules left out of one function's bundle: all of the above, but the codec stays for a function that uses the media bucket (S3). */
export const externalModulesFor = (usesS3: boolean): string[] => bundling.externalModules.filter((name) => !(usesS3 && name === LOADED_BY_S3));
