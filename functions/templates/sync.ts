import { syncTemplates } from '#shared/domain/templates';
import { errors } from '#shared/http/errors';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { PlatformError, PlatformUnreachable } from '#shared/platform/graph-client';

export const handler = httpOperation({}, async ({ workspace }) => {
  try {
    return ok({ synced_count: await syncTemplates(workspace) });
  } catch (error) {
    if (error instanceof PlatformError) throw errors.badGateway(`The messaging platform refused the template list: ${error.title} (code ${error.code})`);
    if (error instanceof PlatformUnreachable) throw errors.badGateway('The messaging platform did not answer; try again later');
    throw error;
  }
});
