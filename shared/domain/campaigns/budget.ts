import { BUDGET_SHARDS, budgetShards, pauseRunningCampaign, reserveOnShard } from '#shared/data/campaign-budget';
import { moveCampaign, requireCampaign } from '#shared/domain/campaigns/lifecycle';
import { fromUnits, toUnits } from '#shared/domain/pricing/money';
import { rateOf } from '#shared/domain/pricing/rate-card';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import { env } from '#shared/config';
import { errors } from '#shared/errors';
import { logger } from '#shared/logger';
import { phoneRegion } from '#shared/phone';
import type { Campaign } from '#shared/records/campaign';
import type { Message } from '#shared/records/message';
import type { PriceCategory } from '#shared/records/pricing';
import { nowIso } from '#shared/time';

/*
 * A campaign's budget (contract §20, docs/pricing.md §6): before a message goes, the send job
 * reserves its estimate (the card's list price for its market and the template's category) on one
 * of the campaign's budget shards, only while every reservation so far plus this one stays within
 * `max_cost`; otherwise the campaign pauses with `budget_reached` and its messages wait `queued`.
 */

export const BUDGET_REACHED = 'budget_reached';

/** A reservation that loses its shard's race this many times in a row gives up (the job is tried again). */
const MAX_RACES = 20;

/** The shard a message would reserve on: spread by its id. */
const shardOf = (messageId: string) => Number.parseInt(messageId.replace(/-/g, '').slice(-4), 16) % BUDGET_SHARDS;

/** A campaign's shards this process's sends are reserving on now, and the sends waiting for one, each handed the next shard let go. */
interface Reserving {
  busy: Set<number>;
  waiting: ((shard: number) => void)[];
}
const reservingOn = new Map<string, Reserving>();

/**
 * Runs a reservation on a shard no other send of this process is reserving on for the campaign
 * (the message's own shard when it is free), waiting for one in turn when all are: the sends of
 * one batch, which run together, then never lose races to each other, only to other processes'.
 * Any shard will do, as only their sum is read, and the overshoot bound does not depend on which
 * (docs/pricing.md §6).
 */
async function onFreeShard<T>(campaign: Campaign, messageId: string, reserve: (shard: number) => Promise<T>): Promise<T> {
  const key = `${campaign.workspace_id}#${campaign.id}`;
  const state = reservingOn.get(key) ?? reservingOn.set(key, { busy: new Set(), waiting: [] }).get(key)!;
  const own = shardOf(messageId);
  const free = Array.from({ length: BUDGET_SHARDS }, (_, i) => (own + i) % BUDGET_SHARDS).find((shard) => !state.busy.has(shard));
  // A shard let go goes straight to the send that waited longest: it stays taken, so no newcomer can come between.
  const shard = free ?? (await new Promise<number>((resolve) => state.waiting.push(resolve)));
  state.busy.add(shard);
  try {
    return await reserve(shard);
  } finally {
    const next = state.waiting.shift();
    if (next) next(shard);
    else {
      state.busy.delete(shard);
      if (state.busy.size === 0) reservingOn.delete(key);
    }
  }
}

/** What one message of the campaign is estimated to cost: its list price, as the campaign's estimate prices it; 0 when the card has no price. */
async function messageEstimate(campaign: Campaign, message: Message): Promise<number> {
  const card = await rateCardOf(campaign.workspace_id);
  const category = (campaign.template?.category ?? 'MARKETING').toLowerCase() as PriceCategory;
  const callingCode = message.phone_number ? phoneRegion(message.phone_number).callingCode : null;
  return rateOf(card, callingCode, category)?.units ?? 0;
}

/** What the campaign's sends have reserved so far (billed plus in flight, as estimates), in ten-thousandths. */
export const reservedSoFar = async (campaign: Campaign): Promise<number> =>
  (await budgetShards(campaign.workspace_id, campaign.id)).reduce((sum, units) => sum + units, 0);

/**
 * Reserves the claimed message's estimate within the campaign's `max_cost`: the units reserved
 * now, true when nothing needed reserving (an earlier try of the same message did, or no budget),
 * false when it would take the campaign over its budget. The message records what it reserved
 * only if its claim is given back (send-job-endings.ts): one write fewer on the common path, where
 * it is sent and never tried again.
 */
export async function reserveBudget(campaign: Campaign, message: Message): Promise<number | boolean> {
  if (!campaign.max_cost || message.budget_reserved !== undefined) return true;
  const max = toUnits(campaign.max_cost);
  const units = await messageEstimate(campaign, message);
  return onFreeShard(campaign, message.id, async (shard) => {
    for (let race = 0; race < MAX_RACES; race++) {
      const shards = await budgetShards(campaign.workspace_id, campaign.id);
      const total = shards.reduce((sum, value) => sum + value, 0);
      if (total + units > max) return false;
      if (units === 0) return true;
      if (await reserveOnShard(campaign.workspace_id, campaign.id, shard, shards[shard], units)) return units;
    }
    throw new Error(`The budget shard ${shard} of campaign ${campaign.id} stayed contended`);
  });
}

/** The campaign stops sending: its budget is reached. Only the first pausing send writes (it keeps its `since`). */
export async function pauseForBudget(campaign: Campaign): Promise<void> {
  const reason = {
    code: BUDGET_REACHED,
    title: `The next message would take the campaign over its max_cost of ${campaign.max_cost}`,
    since: nowIso(),
  } as const;
  if (await pauseRunningCampaign(campaign.workspace_id, campaign.id, reason))
    logger.info('CampaignBudgetReached', { campaignId: campaign.id, maxCost: campaign.max_cost });
}

/** How often a message of a campaign paused by its budget looks again: every minute in the pause's first hour, then every 15 minutes (PAUSE_PROBE_SCALE shortens them in tests). */
export function budgetWaitMs(campaign: Campaign, now = Date.now()): number {
  const since = campaign.paused_reason ? Date.parse(campaign.paused_reason.since) : now;
  return (now - since < 3600_000 ? 60_000 : 15 * 60_000) * env.testScales.pauseProbe;
}

/** Whether the campaign's unsent messages wait for a resume (a message that already reserved its estimate goes on). */
export const waitsForBudget = (campaign: Campaign | undefined, message: Message): boolean =>
  campaign?.paused_reason?.code === BUDGET_REACHED && message.budget_reserved === undefined;

/**
 * `POST /api/v1/campaigns/{id}/resume` (contract §20): a campaign paused by its budget goes on
 * with a higher `max_cost`, which must leave room above what its sends have reserved (else 422).
 */
export async function resumeCampaign(ws: string, id: string, maxCost: string): Promise<Campaign> {
  const campaign = await requireCampaign(ws, id);
  if (campaign.status !== 'running' || campaign.paused_reason?.code !== BUDGET_REACHED) {
    throw errors.invalidState(
      `The campaign is ${campaign.status}${campaign.status === 'running' ? ' and not paused by its budget' : ''}; resume needs it paused with budget_reached`,
    );
  }
  const reserved = await reservedSoFar(campaign);
  if (toUnits(maxCost) <= reserved) {
    throw errors.unprocessable([{ field: 'max_cost', message: `Must be above what the campaign has billed and has in flight: ${fromUnits(reserved)}` }]);
  }
  return moveCampaign(ws, id, ['running'], { max_cost: maxCost, paused_reason: null });
}
