import { listNumbers } from '#shared/domain/numbers/numbers';
import { requireActiveWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { ListWorkspaceNumbers } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(ListWorkspaceNumbers.request, async ({ params }) => ok(await listNumbers(await requireActiveWorkspace(params.id))));
