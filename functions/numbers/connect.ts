import { connectNumber } from '#shared/domain/numbers/connect';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { ConnectNumber } from '#shared/schemas/operations/numbers';

export const handler = httpOperation(ConnectNumber.request, async ({ body, workspace }) => created(await connectNumber(workspace, body, { by: 'workspace' })));
