import { answerCall } from '#shared/domain/calls/answer';
import { callView } from '#shared/domain/calls/call';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { RejectCall } from '#shared/schemas/operations/calls';

export const handler = httpOperation(RejectCall.request, async ({ params, workspace }) => ok(callView(await answerCall(workspace.id, params.id, 'reject'))));
