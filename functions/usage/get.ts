import * as v from 'valibot';
import { summarizeUsage } from '#shared/http/usage';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { integerParam } from '#shared/http/schemas';

const query = v.object({ days: integerParam(1, 90, 30) });

export const handler = httpOperation({ query }, async ({ query, workspace }) => ok(await summarizeUsage(workspace.id, query.days)));
