import { Command } from '@smithy/core/client';
import { currentFunction, type FunctionContext } from '#local/function-context';
import type { PolicyStatement, TemplateModel } from '#local/iam/model';
import { loadTemplateModel, localChecksOn } from '#local/iam/model-file';
import { iamRequests, LocalResources, serviceOfClient, TemplateMismatchError, type IamRequest } from '#local/iam/requests';
import { watchSettings } from '#local/iam/environment';
import { recordCall, recordMismatch, recordRefusal } from '#local/iam/usage';
import { refusalMessage, refusalResponse } from '#local/iam/aws-refusal';
import { evaluate, type Decision } from '#local/iam/simulation';

/**
 * IAM as AWS enforces it, on the local stack: every AWS call a function makes (through any SDK v3
 * client: each command resolves its middleware through the one `Command` class of @smithy/core) is
 * evaluated against the policies of that function's role in the synthesized template
 * (local/iam/template-model.ts), with @cloud-copilot/iam-simulate, before it is sent. A refused call
 * is answered as AWS answers it, with the service's own error response (AccessDeniedException, S3's
 * AccessDenied), which the SDK turns into the error it would throw in AWS and does not retry; the
 * refusal is logged with the action and resource the role lacks. Calls made outside any function's
 * context (set-up, tests) are not checked.
 */

/** A call refused: what the SDK's error said once it was made of AWS's response. */
export interface Refusal {
  functionName: string;
  via: FunctionContext['via'];
  action: string;
  resource: string;
  message: string;
  injected: boolean;
  /** The error the SDK threw for it, as a caller saw it (once the call has failed). */
  error?: Error & { $fault?: string; $metadata?: { httpStatusCode?: number; attempts?: number } };
}

interface State {
  model: TemplateModel;
  resources: LocalResources;
  decisions: Map<string, Promise<Decision>>;
  /** Functions whose policies or environment a test changed (`localChecks.withoutStatement`, `withoutVariable`): their failures are the test's doing. */
  changed: Set<string>;
  /** Calls under way that a test makes fail on purpose (`localChecks.expectingFailures`). */
  expecting: number;
  refusals: Refusal[];
}

let state: State | undefined;
let starting: Promise<void> | undefined;

function decide(current: State, functionName: string, request: IamRequest): Promise<Decision> {
  const key = `${functionName}\n${request.action}\n${request.resource}\n${JSON.stringify(request.context ?? {})}`;
  let decision = current.decisions.get(key);
  if (!decision) {
    decision = evaluate(current.model.functions[functionName], request);
    current.decisions.set(key, decision);
  }
  return decision;
}

/** A failure a test brought about: it changed the function, or expects its calls to fail. */
const injectedFor = (current: State, functionName: string) => current.changed.has(functionName) || current.expecting > 0;

interface Call {
  clientName: string;
  commandName: string;
  input: Record<string, unknown>;
}

/** The IAM requests of a call in this context, each with the function whose role makes it; none for what is not checked. */
function requestsOf(current: State, context: FunctionContext, call: Call): { functionName: string; request: IamRequest }[] {
  const functionNames = context.functions.filter((name) => name in current.model.functions);
  if (functionNames.length === 0) return [];
  let requests: IamRequest[];
  try {
    requests = iamRequests(call.clientName, call.commandName, call.input, current.resources);
  } catch (error) {
    // Lambda's pollers of a test's own queue or table: nothing of the template's to check them against.
    if (context.via === 'eventSource' && error instanceof TemplateMismatchError) return [];
    if (error instanceof TemplateMismatchError) {
      for (const name of functionNames) recordMismatch(name, { message: error.message, injected: injectedFor(current, name) });
      console.error(`[local checks] ${functionNames.join(', ')}: ${error.message}`);
    }
    throw error;
  }
  return functionNames.flatMap((functionName) => requests.map((request) => ({ functionName, request })));
}

/** Evaluates each request; the first refused is the call's refusal (AWS names one). */
async function authorize(
  current: State,
  context: FunctionContext,
  service: string,
  requests: { functionName: string; request: IamRequest }[],
): Promise<Refusal | undefined> {
  for (const { functionName, request } of requests) {
    const decision = await decide(current, functionName, request);
    if (decision.allowed) {
      recordCall(functionName, { action: request.action, resource: request.resource, via: context.via, statements: decision.grants });
      continue;
    }
    const role = current.model.functions[functionName].role;
    const refusal: Refusal = {
      functionName,
      via: context.via,
      action: request.action,
      resource: request.resource,
      message: refusalMessage(service, role, functionName, request, decision.explicit),
      injected: injectedFor(current, functionName),
    };
    current.refusals.push(refusal);
    recordRefusal(functionName, { action: refusal.action, resource: refusal.resource, via: refusal.via, injected: refusal.injected });
    console.error(
      `[local IAM] ${functionName}${context.via === 'eventSource' ? "'s event source" : ''} was refused ${request.action} on ${request.resource}: ` +
        `no statement of its role ${role} allows it${refusal.injected ? ' (a test took a statement away)' : ' (grant it in lib/access-grants.ts)'}`,
    );
    return refusal;
  }
  return undefined;
}

type Handler = (args: unknown) => Promise<unknown>;
interface RequestHandler {
  handle(request: unknown, options?: unknown): Promise<{ response: unknown }>;
}
type Resolve = (this: Command<any, any, any>, stack: any, configuration: any, options: any, details: { clientName: string; commandName: string }) => Handler;

const PATCHED = Symbol.for('messaging-api.local.iam-checked');

/** Puts the check in front of every command's request handler (once per module instance of @smithy/core). */
function checkEveryCall(): void {
  const prototype = Command.prototype as unknown as Record<string | symbol, unknown> & { resolveMiddlewareWithContext: Resolve };
  if (prototype[PATCHED]) return;
  prototype[PATCHED] = true;
  const original = prototype.resolveMiddlewareWithContext;
  prototype.resolveMiddlewareWithContext = function (stack, configuration, options, details) {
    const context = currentFunction();
    const current = state;
    if (!context || !current) return original.call(this, stack, configuration, options, details);
    const call: Call = { clientName: details.clientName, commandName: details.commandName, input: (this as { input: Record<string, unknown> }).input };
    let requests: ReturnType<typeof requestsOf>;
    try {
      requests = requestsOf(current, context, call);
    } catch (error) {
      return () => Promise.reject(error);
    }
    if (requests.length === 0) return original.call(this, stack, configuration, options, details);
    const service = serviceOfClient(details.clientName);

    // A presigned link (S3's presigner resolves the command without sending it): AWS checks the role when the link is
    // followed, and the link fails then; locally it is refused as it is signed, with the error S3 would have answered.
    if ((stack.identify() as string[]).some((name) => name.startsWith('presignInterceptMiddleware'))) {
      const handler = original.call(this, stack, configuration, options, details);
      return async (args) => {
        const refusal = await authorize(current, context, service, requests);
        if (!refusal) return handler(args);
        const error = Object.assign(new Error(refusal.message), {
          name: 'AccessDenied',
          Code: 'AccessDenied',
          $fault: 'client',
          $metadata: { httpStatusCode: 403, attempts: 1, totalRetryDelay: 0 },
        });
        refusal.error = error;
        throw error;
      };
    }

    let refusal: Refusal | undefined;
    const sender = configuration.requestHandler as RequestHandler;
    const checking: RequestHandler = {
      handle: async (request, handlerOptions) => {
        refusal = await authorize(current, context, service, requests);
        if (refusal) return { response: refusalResponse(service, refusal.message) };
        return sender.handle(request, handlerOptions);
      },
    };
    const handler = original.call(this, stack, { ...configuration, requestHandler: checking }, options, details);
    return (args) =>
      handler(args).catch((error: unknown) => {
        if (refusal) refusal.error = error as Refusal['error'];
        throw error;
      });
  };
}

/**
 * Starts the local checks in this process (idempotent): reads the template's model (local/iam/model.ts),
 * checks every call of a function's context and the settings it reads. LOCAL_IAM=off: nothing.
 */
export function startLocalChecks(): Promise<void> {
  if (!localChecksOn()) return Promise.resolve();
  starting ??= loadTemplateModel().then((model) => {
    state = { model, resources: new LocalResources(model.resources), decisions: new Map(), changed: new Set(), expecting: 0, refusals: [] };
    checkEveryCall();
    watchSettings(
      (functionName) => state?.model.functions[functionName]?.environment,
      (functionName) => Boolean(state && injectedFor(state, functionName)),
    );
  });
  return starting;
}

/** Hooks for tests: change a function's role or environment in this process, and see what was refused. */
export const localChecks = {
  /**
   * Takes away the statements of the function's role that `pick` picks (each statement with its
   * policy's name and 1-based index), as if the template lacked them; answers how many it took and
   * a function that gives them back.
   */
  withoutStatement(functionName: string, pick: (statement: PolicyStatement, where: { policy: string; index: number }) => boolean) {
    const current = started();
    const fn = current.model.functions[functionName];
    if (!fn) throw new Error(`No function ${functionName} in the template`);
    const before = fn.policies;
    let taken = 0;
    fn.policies = before.map((policy) => ({
      ...policy,
      document: {
        ...policy.document,
        Statement: policy.document.Statement.filter((statement, i) => {
          const keep = !pick(statement, { policy: policy.name, index: i + 1 });
          if (!keep) taken++;
          return keep;
        }),
      },
    }));
    current.decisions.clear();
    current.changed.add(functionName);
    return {
      taken,
      restore: () => {
        fn.policies = before;
        current.decisions.clear();
        current.changed.delete(functionName);
      },
    };
  },

  /** Takes a variable away from a function's environment in the template; answers a function that gives it back. */
  withoutVariable(functionName: string, name: string): () => void {
    const current = started();
    const fn = current.model.functions[functionName];
    const { [name]: value, ...others } = fn.environment;
    fn.environment = others;
    current.changed.add(functionName);
    return () => {
      fn.environment = { ...fn.environment, [name]: value };
      current.changed.delete(functionName);
    };
  },

  /** Runs calls a test makes fail on purpose (a resource the template lacks): what they record is the test's doing. */
  async expectingFailures<T>(work: () => Promise<T>): Promise<T> {
    const current = started();
    current.expecting++;
    try {
      return await work();
    } finally {
      current.expecting--;
    }
  },

  /** Calls refused so far in this process. */
  refusals: (): readonly Refusal[] => started().refusals,

  /** The model the checks use (a copy's worth: tests read it). */
  model: (): TemplateModel => started().model,
};

function started(): State {
  if (!state) throw new Error('The local checks have not started (startLocalChecks, or LOCAL_IAM=off)');
  return state;
}
