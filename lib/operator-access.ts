import { Aws, CfnOutput, type Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { ManagedPolicy, PolicyStatement, Role, User, type IRole, type IUser } from 'aws-cdk-lib/aws-iam';
import { acknowledgeOperatorPolicyFindings } from '#lib/nag-suppressions';

/**
 * Who may call the operator's API (/admin/v1, contract §19). Its routes use API Gateway's IAM
 * authorization: a request must be SigV4-signed by a principal allowed `execute-api:Invoke` on
 * them. This policy allows exactly that; it is attached to the roles and users named in the CDK
 * context value `operatorPrincipals` (their ARNs, comma-separated, in this account), and its ARN
 * is an output, for attaching it to others later. Workspaces' keys never reach these routes.
 */
export function grantOperatorAccess(stack: Stack, api: HttpApi): ManagedPolicy {
  const principals = parsePrincipals(stack.node.tryGetContext('operatorPrincipals'));
  const roles: IRole[] = [];
  const users: IUser[] = [];
  principals.forEach((arn, index) => {
    if (/:role\//.test(arn)) roles.push(Role.fromRoleArn(stack, `OperatorRole${index}`, arn, { mutable: true }));
    else if (/:user\//.test(arn)) users.push(User.fromUserArn(stack, `OperatorUser${index}`, arn));
    else throw new Error(`operatorPrincipals: ${arn} is neither an IAM role nor an IAM user ARN`);
  });
  const policy = new ManagedPolicy(stack, 'OperatorApiAccess', {
    description: "Calls the messaging API's operator routes (/admin/v1): workspaces, their keys and numbers",
    statements: [new PolicyStatement({ actions: ['execute-api:Invoke'], resources: [operatorRoutesArn(api)] })],
    roles,
    users,
  });
  acknowledgeOperatorPolicyFindings(policy);
  new CfnOutput(stack, 'OperatorPolicyArn', {
    value: policy.managedPolicyArn,
    description: 'Attach to an IAM role or user to let it call /admin/v1 (npm run admin -- … --api-url <ApiUrl>)',
  });
  return policy;
}

/**
 * Every stage and method under /admin/v1 of this API. Pseudo parameters even when the stack's env
 * is known, so the ARN (and its cdk-nag acknowledgment) is the same everywhere.
 */
const operatorRoutesArn = (api: HttpApi) => `arn:${Aws.PARTITION}:execute-api:${Aws.REGION}:${Aws.ACCOUNT_ID}:${api.apiId}/*/*/admin/v1/*`;

/** `arn:…:role/a,arn:…:user/b` (or a JSON array, as `cdk.json` may hold it): the ARNs, trimmed. */
function parsePrincipals(value: unknown): string[] {
  if (value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : String(value).split(',');
  return list.map((arn) => String(arn).trim()).filter(Boolean);
}
