import { insertExistingNumber, numbersOf } from '#shared/data/business-number';
import { getAccountClaim } from '#shared/data/account-claim';
import { currentPause } from '#shared/domain/messages/number-pause';
import { fetchPhoneNumber } from '#shared/platform/graph-client';
import { throughputOfLevel, type PlatformPhoneNumber } from '#shared/platform/payloads/phone-number';
import { accessTokenFor } from '#shared/platform/secrets';
import { customersOfTier } from '#shared/domain/numbers/messaging-limit';
import { logger } from '#shared/logger';
import { QUALITY_RATINGS, type BusinessNumber, type QualityRating } from '#shared/records/business-number';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/** The number sends use without `from` (contract §17); '' (no number) for a workspace without one yet. */
export const defaultNumberId = (workspace: Workspace): string => workspace.default_number_id ?? firstNumberOf(workspace);

/**
 * The `business_number_id` a new message stores: none for the workspace's first number, which a
 * message without one shows (as every message from before several numbers does). A message item
 * is close to 1 KB by its last status write: 33 bytes more made one write of each campaign message
 * cost 2 WCU (docs/performance.md), so the common case stores nothing.
 */
export const storedNumber = (workspace: Workspace, numberId: string): { business_number_id?: string } =>
  numberId === workspace.phone_number_id ? {} : { business_number_id: numberId };

const qualityOf = (rating: string | undefined): QualityRating =>
  ((QUALITY_RATINGS as readonly string[]).find((q) => q === rating) as QualityRating) ?? 'UNKNOWN';

/** What the service keeps of the platform's phone number object. */
export const detailsFromPlatform = (platform: PlatformPhoneNumber) => ({
  display_phone_number: (platform.display_phone_number ?? '').replace(/\D/g, ''),
  verified_name: platform.verified_name ?? null,
  quality_rating: qualityOf(platform.quality_rating),
  messaging_limit: platform.whatsapp_business_manager_messaging_limit ?? platform.messaging_limit_tier ?? null,
  throughput_mps: throughputOfLevel(platform.throughput?.level),
});

/** What a number shows while the platform has not described it. */
const UNKNOWN_DETAILS: ReturnType<typeof detailsFromPlatform> = {
  display_phone_number: '',
  verified_name: null,
  quality_rating: 'UNKNOWN',
  messaging_limit: null,
  throughput_mps: 80,
};

/**
 * The item of a workspace's first number, written the first time it is needed: a workspace from
 * before several numbers (contract §17, "Upgrade") has only its route. It is written with what the
 * platform says of the number; while the platform does not answer, the number is shown with its
 * details unknown and nothing is written, so the next read tries again.
 */
async function firstNumber(workspace: Workspace, first: { id: string; waba_id: string }): Promise<BusinessNumber> {
  let details: ReturnType<typeof detailsFromPlatform> | undefined;
  try {
    details = detailsFromPlatform(await fetchPhoneNumber(first.id, await accessTokenFor(workspace.id)));
  } catch (error) {
    logger.warn('First number read from the platform failed; its details stay unknown for now', { workspaceId: workspace.id, error: (error as Error).message });
  }
  const number: BusinessNumber = {
    id: first.id,
    workspace_id: workspace.id,
    waba_id: first.waba_id,
    ...(details ?? UNKNOWN_DETAILS),
    status: 'connected',
    connected_at: workspace.created_at,
    updated_at: nowIso(),
  };
  if (details) await insertExistingNumber(number);
  return number;
}

/** Every number the workspace has connected, its first one included (written on first use). */
export async function workspaceNumbers(workspace: Workspace): Promise<BusinessNumber[]> {
  const numbers = await numbersOf(workspace.id);
  const { phone_number_id: id, waba_id } = workspace;
  if (!id || !waba_id || numbers.some((n) => n.id === id)) return numbers;
  return [await firstNumber(workspace, { id, waba_id }), ...numbers];
}

/** Numbers change rarely; sends resolve `from` through a short per-process cache. */
const NUMBERS_CACHE_MS = 3_000;
const numbersCache = new Map<string, { numbers: BusinessNumber[]; until: number }>();

export async function cachedNumbers(workspace: Workspace): Promise<BusinessNumber[]> {
  const hit = numbersCache.get(workspace.id);
  if (hit && hit.until > Date.now()) return hit.numbers;
  const numbers = await workspaceNumbers(workspace);
  numbersCache.set(workspace.id, { numbers, until: Date.now() + NUMBERS_CACHE_MS });
  return numbers;
}

/** A change made in this process is seen at once by its next send. */
export const forgetNumbers = (workspaceId: string): boolean => numbersCache.delete(workspaceId);

/** The business account whose templates a number sends; no number (a message from before several numbers) or the first: the first's. */
export async function wabaOfNumber(workspace: Workspace, numberId: string | undefined): Promise<string> {
  const first = workspace.waba_id ?? '';
  if (!numberId || numberId === workspace.phone_number_id) return first;
  return (await cachedNumbers(workspace)).find((n) => n.id === numberId)?.waba_id ?? first;
}

/**
 * The business accounts the workspace holds (contract §22): those of its connected numbers whose
 * claim names it, the first number's first. An account whose claim names another workspace (two
 * workspaces connected it before claims existed: docs/security.md, "Upgrade") is not its own.
 */
export async function accountsOf(workspace: Workspace): Promise<string[]> {
  const connected = [...new Set((await workspaceNumbers(workspace)).filter((n) => n.status === 'connected').map((n) => n.waba_id))];
  const claims = await Promise.all(connected.map(getAccountClaim));
  const held = connected.filter((_, i) => claims[i]?.workspace_id === workspace.id);
  return held.sort((a, b) => Number(b === workspace.waba_id) - Number(a === workspace.waba_id));
}

/** Of an account's numbers, those of the workspace that holds the account (contract §22): another workspace's are not its to change. */
export async function numbersOfHolder(wabaId: string, numbers: Promise<BusinessNumber[]>): Promise<BusinessNumber[]> {
  const [claim, found] = await Promise.all([getAccountClaim(wabaId), numbers]);
  return found.filter((number) => number.workspace_id === claim?.workspace_id);
}

/** A number as `GET /numbers` shows it: `paused` while an account-level error pauses its sending (§16). */
export async function numberView(workspace: Workspace, number: BusinessNumber) {
  const pause = number.status === 'connected' ? await currentPause(number.id) : undefined;
  return {
    id: number.id,
    display_phone_number: number.display_phone_number,
    verified_name: number.verified_name,
    waba_id: number.waba_id,
    quality_rating: number.quality_rating,
    messaging_limit: number.messaging_limit,
    portfolio_messaging_limit: customersOfTier(number.messaging_limit),
    throughput_mps: number.throughput_mps,
    status: pause ? ('paused' as const) : number.status,
    paused_reason: pause ? { code: pause.code, title: pause.title, since: pause.since } : null,
    is_default: number.id === defaultNumberId(workspace),
    coexistence: number.coexistence ?? null,
    connected_at: number.connected_at,
  };
}

export type NumberView = Awaited<ReturnType<typeof numberView>>;

/** GET /numbers: every connected (or paused) number, the default first, then by connection time. */
export async function listNumbers(workspace: Workspace): Promise<NumberView[]> {
  const connected = (await workspaceNumbers(workspace)).filter((n) => n.status === 'connected');
  const views = await Promise.all(connected.map((n) => numberView(workspace, n)));
  return views.sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.connected_at.localeCompare(b.connected_at));
}
