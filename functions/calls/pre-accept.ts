import { answerCall } from '#shared/domain/calls/answer';
import { callView } from '#shared/domain/calls/call';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { PreAcceptCall } from '#shared/schemas/operations/calls';

export const handler = httpOperation(PreAcceptCall.request, async ({ params, body, workspace }) =>
  ok(callView(await answerCall(workspace.id, params.id, 'pre_accept', body.sdp))),
);
