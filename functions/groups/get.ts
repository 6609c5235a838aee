import { requireGroup } from '#shared/domain/groups/groups';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetGroup } from '#shared/schemas/operations/groups';

export const handler = httpOperation(GetGroup.request, async ({ params, workspace }) => ok(await requireGroup(workspace.id, params.id, true)));
