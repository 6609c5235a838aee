import { setThroughputOf } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { SetNumberThroughput } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(SetNumberThroughput.request, async ({ params, body }) => ok(await setThroughputOf(params.id, body.throughput_mps)));
