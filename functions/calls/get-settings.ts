import { callingSettings } from '#shared/domain/calls/settings';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { GetCallingSettings } from '#shared/schemas/operations/calls';

export const handler = httpOperation(GetCallingSettings.request, async ({ params, workspace }) => ok(await callingSettings(workspace, params.id)));
