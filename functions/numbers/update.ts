import { makeDefault } from '#shared/domain/numbers/connect';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { UpdateNumber } from '#shared/schemas/operations/numbers';

export const handler = httpOperation(UpdateNumber.request, async ({ params, workspace }) => ok(await makeDefault(workspace, params.id)));
