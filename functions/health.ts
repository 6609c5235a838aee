import { publicHttpOperation } from '#shared/http/public-operation';
import { ok } from '#shared/http/responses';

export const handler = publicHttpOperation(async () => ok({ status: 'ok' }));
