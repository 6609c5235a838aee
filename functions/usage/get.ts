import { summarizeUsage } from '#shared/http/usage-summary';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetUsage } from '#shared/schemas/operations/usage';

export const handler = httpOperation(GetUsage.request, async ({ query, workspace }) => ok(await summarizeUsage(workspace.id, query.days)), {
  countAfterAnswer: true,
});
