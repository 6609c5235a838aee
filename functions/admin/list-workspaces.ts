import { operatorList } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { ListWorkspaces } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(ListWorkspaces.request, async () => ok(await operatorList()));
