import { callView, requireCall } from '#shared/domain/calls/call';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetCall } from '#shared/schemas/operations/calls';

export const handler = httpOperation(GetCall.request, async ({ params, workspace }) => ok(callView(await requireCall(workspace.id, params.id))));
