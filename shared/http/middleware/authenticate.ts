import { findActiveKey, touchLastUsed } from '#shared/domain/api-keys';
import { httpErrors } from '#shared/http/errors';
import { logger } from '#shared/logger';
import type { ApiMiddleware } from '#shared/http/context';

const BEARER = /^bearer\s+(\S+)\s*$/i;

/** Bearer API-key authentication: the workspace is always the key's, whatever the request says. */
export const authenticate = (): ApiMiddleware => ({
  before: async ({ event, context }) => {
    const secret = BEARER.exec(event.headers.authorization ?? '')?.[1];
    if (!secret) throw httpErrors.unauthorized();
    const found = await findActiveKey(secret);
    if (!found) throw httpErrors.unauthorized();
    context.caller = { keyId: found.key.id, workspace: found.workspace };
    // Started now, awaited before the function returns; caught at once so a failure is logged, never unhandled.
    context.background.push(touchLastUsed(found.hash, found.key.last_used_at).catch((error) => logger.warn('last_used_at not recorded', { error })));
  },
});
