import { listNumbers } from '#shared/domain/numbers/numbers';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { ListNumbers } from '#shared/schemas/operations/numbers';

export const handler = httpOperation(ListNumbers.request, async ({ workspace }) => ok(await listNumbers(workspace)));
