import {
  deleteSubscriptionRecords,
  getSubscription,
  insertSubscription,
  updateSubscription,
  workspaceSubscriptions,
  type Subscription,
} from '#shared/data/subscription';
import { errors } from '#shared/errors';
import { forgetSubscriptions } from '#shared/domain/subscriber-webhooks/subscription-cache';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { checkWebhookUrl, webhookPolicy } from '#shared/subscribers/url-safety';
import { newSigningSecret } from '#shared/subscribers/signing';

/** During a rotation the previous secret keeps signing alongside the new one this long. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export type { Subscription };

export const subscriptionView = ({ id, url, events, is_active, created_at, updated_at }: Subscription) => ({
  id,
  url,
  events,
  is_active,
  created_at,
  updated_at,
});

/** The secrets that sign a delivery now: the current one, and the previous one during its 24 hours. */
export const signingSecrets = (s: Subscription, now = Date.now()) =>
  s.secrets.filter((entry) => !entry.until || Date.parse(entry.until) > now).map((entry) => entry.secret);

export async function requireSafeUrl(url: string): Promise<string> {
  const checked = await checkWebhookUrl(url, webhookPolicy());
  if (!checked.ok) throw errors.validation([{ field: 'url', message: checked.reason }]);
  return checked.url.toString();
}

export async function createSubscription(ws: string, input: { url: string; events: string[] }) {
  const now = nowIso();
  const secret = newSigningSecret();
  const subscription: Subscription = {
    id: newId(),
    workspace_id: ws,
    url: await requireSafeUrl(input.url),
    events: [...new Set(input.events)],
    is_active: true,
    secrets: [{ secret }],
    failing_since: null,
    created_at: now,
    updated_at: now,
  };
  await insertSubscription(subscription);
  forgetSubscriptions(ws);
  return { ...subscriptionView(subscription), signing_secret: secret };
}

export { getSubscription };

export async function requireSubscription(ws: string, id: string): Promise<Subscription> {
  const subscription = await getSubscription(ws, id);
  if (!subscription) throw errors.notFound('Webhook');
  return subscription;
}

/** A workspace's subscriptions, newest first. */
export const listSubscriptions = workspaceSubscriptions;

/** Sets fields of a subscription that must exist (404 otherwise). */
async function changeSubscription(ws: string, id: string, set: Record<string, unknown>): Promise<Subscription> {
  const changed = await updateSubscription(ws, id, set);
  forgetSubscriptions(ws);
  if (!changed) throw errors.notFound('Webhook');
  return changed;
}

export async function patchSubscription(ws: string, id: string, patch: { url?: string; events?: string[]; is_active?: boolean }) {
  const set: Record<string, unknown> = { updated_at: nowIso() };
  if (patch.url !== undefined) set.url = await requireSafeUrl(patch.url);
  if (patch.events !== undefined) set.events = [...new Set(patch.events)];
  if (patch.is_active !== undefined) {
    set.is_active = patch.is_active;
    if (patch.is_active) set.failing_since = null;
  }
  return subscriptionView(await changeSubscription(ws, id, set));
}

/** A new current secret; the old one signs alongside it for 24 hours. */
export async function rotateSecret(ws: string, id: string) {
  const subscription = await requireSubscription(ws, id);
  const secret = newSigningSecret();
  const until = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
  const previous = subscription.secrets[0];
  const rotated = await updateSubscription(ws, id, { secrets: [{ secret }, { secret: previous.secret, until }], updated_at: nowIso() }, previous.secret);
  if (!rotated) {
    if (await getSubscription(ws, id)) throw errors.invalidState('The secret was rotated by another request at the same time; retry');
    throw errors.notFound('Webhook');
  }
  return { id, signing_secret: secret, previous_secret_expires_at: until };
}

export async function recordFailing(ws: string, id: string, since: string | null, deactivate: boolean) {
  await changeSubscription(ws, id, { failing_since: since, ...(deactivate && { is_active: false }), updated_at: nowIso() });
}

/** Deletes the subscription; its delivery log goes with it. */
export async function deleteSubscription(ws: string, id: string): Promise<void> {
  const deleted = await deleteSubscriptionRecords(ws, id);
  forgetSubscriptions(ws);
  if (!deleted) throw errors.notFound('Webhook');
}
