import { openWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { created } from '#shared/http/responses';
import { CreateWorkspace } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(CreateWorkspace.request, async ({ body }) => created(await openWorkspace(body)));
