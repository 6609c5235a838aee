import { placeCall } from '#shared/domain/calls/place';
import { callView } from '#shared/domain/calls/call';
import { httpOperation } from '#shared/http/operation';
import { created } from '#shared/http/responses';
import { PlaceCall } from '#shared/schemas/operations/calls';

export const handler = httpOperation(PlaceCall.request, async ({ body, workspace }) => created(callView(await placeCall(workspace, body))));
