import { getRateCard, putRateCard } from '#shared/data/rate-card';
import { getWorkspace } from '#shared/data/workspace';
import { DEFAULT_CURRENCY, DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { rateCardProblem } from '#shared/domain/pricing/rate-card';
import { errors } from '#shared/errors';
import type { RateCard } from '#shared/records/pricing';

/**
 * Cards change rarely (an operator's command): a per-process cache saves a read on every status
 * report. Another process sees a new card within CARD_CACHE_MS; reports priced meanwhile keep the old price.
 */
const CARD_CACHE_MS = 60_000;
const cache = new Map<string, { own: RateCard | undefined; until: number }>();

/** The workspace's own card, if the operator set one (undefined: the default applies). */
export const ownRateCard = (ws: string): Promise<RateCard | undefined> => getRateCard(ws);

/** A card as the operator sees it: whose it is (`workspace`: its own; `default`: the deployment's, as it has none). */
export type SourcedRateCard = RateCard & { source: 'workspace' | 'default' };

/** The card the workspace's messages are priced by, read now (not cached); `not_found` when there is no such workspace. */
export async function workspaceRateCard(ws: string): Promise<SourcedRateCard> {
  const [workspace, own] = await Promise.all([getWorkspace(ws), getRateCard(ws)]);
  if (!workspace) throw errors.notFound('Workspace');
  return own ? { source: 'workspace', ...own } : { source: 'default', ...DEFAULT_RATE_CARD };
}

async function cachedOwnCard(ws: string): Promise<RateCard | undefined> {
  const hit = cache.get(ws);
  if (hit && hit.until > Date.now()) return hit.own;
  const own = await getRateCard(ws);
  cache.set(ws, { own, until: Date.now() + CARD_CACHE_MS });
  return own;
}

/** The card a workspace's messages are priced by: its own, else the deployment's default. */
export const rateCardOf = async (ws: string): Promise<RateCard> => (await cachedOwnCard(ws)) ?? DEFAULT_RATE_CARD;

/** The currency of the card a workspace's messages are priced by, for the callers that need no price: they never build the default card. */
export const rateCardCurrency = async (ws: string): Promise<string> => (await cachedOwnCard(ws))?.currency ?? DEFAULT_CURRENCY;

/** Replaces the workspace's own card; `validation_error` when it is not a card of contract §20, `not_found` when there is no such workspace. */
export async function setRateCard(ws: string, input: unknown): Promise<RateCard> {
  const problem = rateCardProblem(input);
  if (problem) throw errors.validation([problem]);
  if (!(await getWorkspace(ws))) throw errors.notFound('Workspace');
  const card = input as RateCard;
  await putRateCard(ws, card);
  cache.delete(ws);
  return card;
}
