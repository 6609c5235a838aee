import { summarizeUsage } from '#shared/http/usage';
import { httpOperation } from '#shared/http/operation';
import { usageQuery } from '#shared/schemas/usage';
import { ok } from '#shared/http/responses';

export const handler = httpOperation({ query: usageQuery }, async ({ query, workspace }) => ok(await summarizeUsage(workspace.id, query.days)));
