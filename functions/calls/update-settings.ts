import { changeCallingSettings } from '#shared/domain/calls/settings';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { UpdateCallingSettings } from '#shared/schemas/operations/calls';

export const handler = httpOperation(UpdateCallingSettings.request, async ({ params, body, workspace }) =>
  ok(await changeCallingSettings(workspace, params.id, body)),
);
