import { onboard } from '#shared/domain/operator/onboarding';
import { operatorView, requireWorkspace } from '#shared/domain/operator/workspaces';
import { operatorOperation } from '#shared/http/operator-operation';
import { ok } from '#shared/http/responses';
import { OnboardWorkspace } from '#shared/schemas/operations/operator';

export const handler = operatorOperation(OnboardWorkspace.request, async ({ params, body }) =>
  ok(await operatorView(await onboard(await requireWorkspace(params.id), body))),
);
