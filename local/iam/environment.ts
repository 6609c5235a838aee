import { env } from '#shared/config';
import { currentFunction } from '#local/function-context';
import { TemplateMismatchError } from '#local/iam/requests';
import { recordEnvironmentRead, recordMismatch } from '#local/iam/usage';

/**
 * The settings a function reads, checked against its environment in the template. The local stack
 * sets every setting in one process for all its functions; in AWS a function has only what the
 * template gives it (and what Lambda sets). Each read of shared/config.ts `env` in a function's
 * context (the one module of the service that reads `process.env`) is charged to that function:
 * a variable neither the template sets on it, nor Lambda, nor one of the lists below fails the read,
 * as the function would find it unset once deployed.
 */

/** Set by Lambda itself in every function's environment. */
const SET_BY_LAMBDA = /^(AWS_[A-Z_]+|_HANDLER|_X_AMZN_TRACE_ID|LAMBDA_TASK_ROOT|LAMBDA_RUNTIME_DIR|TZ)$/;

/** The local stack's own settings, which a deployment never has: its endpoints and stand-ins, and the tests' time scales. */
export const LOCAL_ONLY = new Set([
  'DYNAMODB_ENDPOINT',
  'SQS_ENDPOINT',
  'S3_ENDPOINT',
  'EVENTBRIDGE_ENDPOINT',
  'SCHEDULER_ENDPOINT',
  'SECRETS_MANAGER_ENDPOINT',
  // The platform's credentials and workspaces' tokens, kept in the environment and files locally (Secrets Manager in AWS).
  'PLATFORM_SECRETS',
  'LOCAL_WORKSPACE_SECRETS_DIR',
  // The operator's key of `npm start` (API Gateway's IAM authorization in AWS).
  'OPERATOR_KEY_SHA256',
  'ALLOW_INSECURE_WEBHOOKS',
  'SEND_BACKOFF_SCALE',
  'PAUSE_PROBE_SCALE',
  'MEDIA_BACKOFF_SCALE',
]);

/** Tunables with a default in shared/config.ts: a deployment may set them (the template sets some on some functions), none has to. */
export const TUNABLE = new Set([
  'POWERTOOLS_SERVICE_NAME',
  'ERASURE_GRACE_SECONDS',
  'LIST_WIDENING_DELAY_MS',
  'GRAPH_API_BASE_URL',
  'GRAPH_API_VERSION',
  'GRAPH_TIMEOUT_MS',
  'MEDIA_DOWNLOAD_TIMEOUT_MS',
  'SEND_RATE_PER_SECOND',
  'MAX_SEND_ATTEMPTS',
  'AMBIGUOUS_WAIT_SECONDS',
  'PAIR_INTERVAL_MS',
  'CANCELLED_RESUME_SECONDS',
  'CLOSED_MARKETS',
  'SEGMENT_RESOLVED_LATER_ABOVE',
]);

/** Where a function's variable comes from in AWS, or `missing`. */
export function sourceOf(name: string, templateEnvironment: Record<string, string>): string {
  if (name in templateEnvironment) return 'template';
  if (SET_BY_LAMBDA.test(name)) return 'lambda';
  if (LOCAL_ONLY.has(name)) return 'local';
  if (TUNABLE.has(name)) return 'default';
  return 'missing';
}

type Getter = (...args: unknown[]) => unknown;
const WATCHED = Symbol.for('messaging-api.local.watched-settings');

/**
 * Charges each read of `env` (and `env.testScales`) in a function's context to that function, and
 * fails a read of a variable its function does not have (`environmentOf` answers the template's;
 * `injected`, whether a test changed it).
 * While a getter runs, `process.env` is a view that sees the names it reads; getters are synchronous,
 * so no other code runs meanwhile. Once per module instance of shared/config.ts.
 */
export function watchSettings(environmentOf: (functionName: string) => Record<string, string> | undefined, injected: (functionName: string) => boolean): void {
  const settings = env as unknown as Record<string | symbol, unknown>;
  if (settings[WATCHED]) return;
  settings[WATCHED] = true;
  let depth = 0;

  const checked = (getter: Getter): Getter =>
    function (this: unknown, ...args: unknown[]) {
      const context = currentFunction();
      if (!context || context.via !== 'code' || depth > 0) return getter.apply(this, args);
      const [functionName] = context.functions;
      const environment = environmentOf(functionName);
      if (!environment) return getter.apply(this, args);
      const real = process.env;
      const read: string[] = [];
      process.env = new Proxy(real, {
        get(target, name) {
          if (typeof name === 'string') read.push(name);
          return Reflect.get(target, name);
        },
      });
      depth++;
      let value: unknown;
      try {
        value = getter.apply(this, args);
      } finally {
        depth--;
        process.env = real;
      }
      const missing = new Set<string>();
      for (const name of read) {
        const source = sourceOf(name, environment);
        recordEnvironmentRead(functionName, name, source);
        if (source === 'missing') missing.add(name);
      }
      if (missing.size) {
        const message = `${functionName} reads ${[...missing].join(', ')}, which its function in the template does not have (lib/access-grants.ts sets each function's environment; local/iam/environment.ts lists the local-only and tunable ones)`;
        console.error(`[local checks] ${message}`);
        recordMismatch(functionName, { message, injected: injected(functionName) });
        throw new TemplateMismatchError(message);
      }
      return value;
    };

  const wrap = (target: Record<string, unknown>) => {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
      if (descriptor.get) Object.defineProperty(target, name, { ...descriptor, get: checked(descriptor.get) });
      else if (typeof descriptor.value === 'function') Object.defineProperty(target, name, { ...descriptor, value: checked(descriptor.value as Getter) });
      else if (descriptor.value && typeof descriptor.value === 'object') wrap(descriptor.value as Record<string, unknown>);
    }
  };
  wrap(settings);
}
