import { randomUUID } from 'node:crypto';
import { HttpResponse } from '@smithy/core/transport';
import { ACCOUNT, PARTITION } from '#local/iam/model';
import type { IamRequest } from '#local/iam/requests';

/**
 * A call the local IAM checks refuse (local/iam/enforcement.ts), answered as AWS answers it: the
 * service's own error response, in AWS's words.
 */

/** The SDK's error response of each service, as AWS sends it when IAM refuses a call. */
export function refusalResponse(service: string, message: string): HttpResponse {
  const requestId = randomUUID();
  const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}) =>
    new HttpResponse({
      statusCode,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': requestId, ...headers },
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
  switch (service) {
    case 'S3':
      return new HttpResponse({
        statusCode: 403,
        headers: { 'content-type': 'application/xml', 'x-amz-request-id': requestId, 'x-amz-id-2': requestId },
        body: new TextEncoder().encode(
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message><RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`,
        ),
      });
    case 'SQS':
      // SQS answers in JSON and names the error for the query protocol's clients too: the SDK takes that name (`AccessDenied`).
      return json(400, { __type: 'com.amazon.coral.service#AccessDeniedException', message }, { 'x-amzn-query-error': 'AccessDenied;Sender' });
    case 'Scheduler':
      return json(400, { Message: message }, { 'x-amzn-errortype': 'AccessDeniedException', 'content-type': 'application/json' });
    case 'DynamoDB':
    case 'DynamoDBStreams':
      return json(400, { __type: 'com.amazon.coral.service#AccessDeniedException', Message: message });
    default:
      // EventBridge, Secrets Manager (JSON 1.1).
      return json(400, { __type: 'AccessDeniedException', Message: message }, { 'content-type': 'application/x-amz-json-1.1' });
  }
}

/** AWS's words for a refusal. SQS writes its actions in lower case; S3 quotes the resource. */
export function refusalMessage(service: string, role: string, functionName: string, request: IamRequest, explicit: boolean): string {
  const action = service === 'SQS' ? request.action.toLowerCase() : request.action;
  const resource = service === 'S3' ? `"${request.resource}"` : request.resource;
  const why = explicit ? 'with an explicit deny in an identity-based policy' : `because no identity-based policy allows the ${action} action`;
  return `User: arn:${PARTITION}:sts::${ACCOUNT}:assumed-role/${role}/${functionName} is not authorized to perform: ${action} on resource: ${resource} ${why}`;
}
