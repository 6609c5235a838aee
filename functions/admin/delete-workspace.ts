import { requestErasure } from '#shared/domain/operator/erasure';
import { operatorView } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { accepted } from '#shared/http/responses';
import { DeleteWorkspace } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(DeleteWorkspace.request, async ({ params }) => accepted(await operatorView(await requestErasure(params.id))));
