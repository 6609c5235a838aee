import { operatorView, requireWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { GetWorkspace } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(GetWorkspace.request, async ({ params }) => ok(await operatorView(await requireWorkspace(params.id))));
