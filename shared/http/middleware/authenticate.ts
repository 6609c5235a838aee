import { findActiveKey, touchLastUsed, workspaceOfSeenKey } from '#shared/domain/api-keys';
import { startAdmission, withdrawAdmission } from '#shared/http/rate-limit';
import { httpErrors } from '#shared/http/errors';
import { errors } from '#shared/errors';
import { logger } from '#shared/logger';
import type { ApiMiddleware } from '#shared/http/context';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * Bearer API-key authentication: the workspace is always the key's, whatever the request says; a
 * suspended workspace's keys are refused (contract §19). `countsOnAdmission`: the admission
 * started here counts the request in usage (shared/http/rate-limit.ts).
 */
export const authenticate = ({ countsOnAdmission }: { countsOnAdmission: boolean }): ApiMiddleware => ({
  before: async ({ event, context }) => {
    const secret = BEARER.exec(event.headers.authorization ?? '')?.[1];
    if (!secret) throw httpErrors.unauthorized();
    // A key seen before: its workspace's admission is written alongside the key's read, not after it.
    const seenWorkspace = workspaceOfSeenKey(secret);
    if (seenWorkspace) {
      context.admission = startAdmission(seenWorkspace, countsOnAdmission);
      context.admission.admission.catch(() => undefined); // awaited by the rate limit, or withdrawn below
    }
    const found = await findActiveKey(secret);
    if (!found || found.workspace.suspended) {
      // A key revoked since, or of a suspended workspace: the place it took is given back, so it cannot crowd out the workspace's valid keys.
      if (context.admission) context.background.push(withdrawAdmission(context.admission).catch((error) => logger.warn('Admission not withdrawn', { error })));
      if (found) throw errors.refused('workspace_suspended', 'This workspace is suspended by the operator of the service');
      throw httpErrors.unauthorized();
    }
    context.caller = { keyId: found.key.id, workspace: found.workspace };
    // Started now, awaited before the function returns; caught at once so a failure is logged, never unhandled.
    context.background.push(touchLastUsed(found.hash, found.key.last_used_at).catch((error) => logger.warn('last_used_at not recorded', { error })));
  },
});
