import { getGrantReasons, runSimulation } from '@cloud-copilot/iam-simulate';
import { ACCOUNT, PARTITION, type FunctionModel } from '#local/iam/model';
import type { IamRequest } from '#local/iam/requests';

/** IAM's decision on one request of a function's role, as @cloud-copilot/iam-simulate evaluates the role's policies. */
export interface Decision {
  allowed: boolean;
  explicit: boolean;
  /** The statements that allowed it: `<policy>#<index>`. */
  grants: string[];
}

export async function evaluate(fn: FunctionModel, request: IamRequest): Promise<Decision> {
  const result = await runSimulation(
    {
      request: {
        principal: `arn:${PARTITION}:iam::${ACCOUNT}:role/${fn.role}`,
        action: request.action,
        resource: { resource: request.resource, accountId: ACCOUNT },
        contextVariables: request.context ?? {},
      },
      identityPolicies: fn.policies.map((policy) => ({ name: policy.name, policy: policy.document })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === 'error') throw new Error(`IAM simulation of ${request.action} on ${request.resource} failed: ${JSON.stringify(result.errors)}`);
  const analyses = result.resultType === 'single' ? [result.result.analysis] : result.results.map((r) => r.analysis);
  const grants = analyses.flatMap((analysis) =>
    getGrantReasons(analysis).map((grant) => `${'policyIdentifier' in grant ? grant.policyIdentifier : grant.policyType}#${grant.statementIndex}`),
  );
  return { allowed: result.overallResult === 'Allowed', explicit: result.overallResult === 'ExplicitlyDenied', grants: [...new Set(grants)] };
}
