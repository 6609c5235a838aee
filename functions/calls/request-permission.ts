import { requestCallPermission } from '#shared/domain/calls/place';
import { createdView } from '#shared/domain/messages/message';
import { httpOperation } from '#shared/http/operation';
import { accepted } from '#shared/http/responses';
import { RequestCallPermission } from '#shared/schemas/operations/calls';

export const handler = httpOperation(RequestCallPermission.request, async ({ body, workspace }) =>
  accepted(createdView(await requestCallPermission(workspace, body))),
);
