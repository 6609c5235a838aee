import * as budgetShards from '#shared/data/campaign-budget';
import { reserveBudget, reservedSoFar } from '#shared/domain/campaigns/budget';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { toUnits } from '#shared/domain/pricing/money';
import { rateCardOf } from '#shared/domain/pricing/rate-cards';
import { newId } from '#shared/ids';
import type { Campaign } from '#shared/records/campaign';
import type { Message } from '#shared/records/message';
import { useIsolatedTable } from '../support/table';

useIsolatedTable();

/** A running campaign of a workspace without its own rate card (the default card prices it) and a budget that never pauses it here. */
async function runningCampaign(): Promise<Campaign> {
  const campaign = { workspace_id: newId(), id: newId(), max_cost: '100000', template: { category: 'MARKETING' } } as unknown as Campaign;
  await rateCardOf(campaign.workspace_id); // read once before the sends, so that they all start together
  return campaign;
}
const sendsTo = (count: number) => Array.from({ length: count }, (_, i) => ({ id: newId(), phone_number: `1415555${String(1000 + i)}` }) as unknown as Message);
const usRate = toUnits(DEFAULT_RATE_CARD.markets['1']?.marketing ?? DEFAULT_RATE_CARD.default.marketing!);

afterEach(() => jest.restoreAllMocks());

// docs/pricing.md §6: a send reserves on a shard no other send of its process is reserving on, so the sends of a batch do not race each other.
describe('budget reservations of one process', () => {
  it('reserve every estimate once, with no write lost to a race between them, three times as many as there are shards', async () => {
    const reserve = jest.spyOn(budgetShards, 'reserveOnShard');
    const campaign = await runningCampaign();
    const sends = sendsTo(3 * budgetShards.BUDGET_SHARDS);

    const reserved = await Promise.all(sends.map((message) => reserveBudget(campaign, message)));

    expect(reserved).toEqual(sends.map(() => usRate));
    expect(await reservedSoFar(campaign)).toBe(sends.length * usRate);
    expect(reserve).toHaveBeenCalledTimes(sends.length);
    expect(await Promise.all(reserve.mock.results.map((result) => result.value as Promise<boolean>))).toEqual(sends.map(() => true));
    // Spread over every shard, not queued on one.
    expect((await budgetShards.budgetShards(campaign.workspace_id, campaign.id)).every((units) => units > 0)).toBe(true);
  });

  it('let go of the shard of a reservation that failed: the sends after it reserve all the same, without a lost race', async () => {
    const campaign = await runningCampaign();
    const reserve = jest.spyOn(budgetShards, 'reserveOnShard').mockRejectedValueOnce(new Error('DynamoDB is unavailable'));
    const sends = sendsTo(2 * budgetShards.BUDGET_SHARDS);

    const outcomes = await Promise.allSettled(sends.map((message) => reserveBudget(campaign, message)));

    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    expect(await reservedSoFar(campaign)).toBe((sends.length - 1) * usRate);
    expect(reserve).toHaveBeenCalledTimes(sends.length);
    // And a later batch finds every shard free again: one send on each.
    reserve.mockClear();
    const before = await budgetShards.budgetShards(campaign.workspace_id, campaign.id);
    const later = sendsTo(budgetShards.BUDGET_SHARDS);
    expect(await Promise.all(later.map((message) => reserveBudget(campaign, message)))).toEqual(later.map(() => usRate));
    expect(reserve).toHaveBeenCalledTimes(later.length);
    const after = await budgetShards.budgetShards(campaign.workspace_id, campaign.id);
    expect(after.map((units, shard) => units - before[shard])).toEqual(later.map(() => usRate));
  });
});
