import { workspaceSubscriptions, type Subscription } from '#shared/data/subscription';

/**
 * How long a process keeps a workspace's subscriptions for dispatching its events, as it keeps
 * the workspace itself (shared/domain/workspaces.ts): a message's three status events would
 * otherwise read them three times (issue 29). A change made in this process is seen at once;
 * other processes see it within this time (docs/decisions.md, Outbound webhooks).
 */
const SUBSCRIPTIONS_CACHE_MS = 3_000;
/** Past this many workspaces, expired entries are dropped as new ones come. */
const PRUNE_ABOVE = 1_000;

const cache = new Map<string, { subscriptions: Promise<Subscription[]>; until: number }>();

/** A workspace's subscriptions as this process last read them, read again once older than SUBSCRIPTIONS_CACHE_MS; concurrent callers share one read. */
export function cachedSubscriptions(ws: string): Promise<Subscription[]> {
  const now = Date.now();
  const hit = cache.get(ws);
  if (hit && hit.until > now) return hit.subscriptions;
  if (cache.size > PRUNE_ABOVE) for (const [key, entry] of cache) if (entry.until <= now) cache.delete(key);
  const subscriptions = workspaceSubscriptions(ws);
  cache.set(ws, { subscriptions, until: now + SUBSCRIPTIONS_CACHE_MS });
  // A failed read is not kept: the next event reads again.
  subscriptions.catch(() => cache.delete(ws));
  return subscriptions;
}

/** After this process changed a subscription of the workspace. */
export const forgetSubscriptions = (ws: string): void => void cache.delete(ws);
