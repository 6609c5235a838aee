import * as budgetShards from '#shared/data/campaign-budget';
import { reserveBudget, reservedSoFar } from '#shared/domain/campaigns/budget';
import { DEFAULT_RATE_CARD } from '#shared/domain/pricing/default-rate-card';
import { toUnits } from '#shared/domain/pricing/money';
import { newId } from '#shared/ids';
import type { Campaign } from '#shared/records/campaign';
import type { Message } from '#shared/records/message';
import { useIsolatedTable } from '../support/table';

useIsolatedTable();

/** A running campaign of a workspace without its own rate card (the default card prices it) and a budget that never pauses it here. */
const campaign = () => ({ workspace_id: newId(), id: newId(), max_cost: '100000', template: { category: 'MARKETING' } }) as unknown as Campaign;
const messageTo = (phone: string) => ({ id: newId(), phone_number: phone }) as unknown as Message;
const usRate = toUnits(DEFAULT_RATE_CARD.markets['1']?.marketing ?? DEFAULT_RATE_CARD.default.marketing!);

afterEach(() => jest.restoreAllMocks());

// docs/pricing.md §6: a send reserves on a shard no other send of its process is reserving on, so the sends of a batch do not race each other.
describe('budget reservations of one process', () => {
  it('reserve every estimate once, with no write lost to a race between them, three times as many as there are shards', async () => {
    const reserve = jest.spyOn(budgetShards, 'reserveOnShard');
    const running = campaign();
    const sends = Array.from({ length: 3 * budgetShards.BUDGET_SHARDS }, (_, i) => messageTo(`1415555${String(1000 + i)}`));

    const reserved = await Promise.all(sends.map((message) => reserveBudget(running, message)));

    expect(reserved).toEqual(sends.map(() => usRate));
    expect(await reservedSoFar(running)).toBe(sends.length * usRate);
    expect(reserve).toHaveBeenCalledTimes(sends.length);
    expect(await Promise.all(reserve.mock.results.map((result) => result.value as Promise<boolean>))).toEqual(sends.map(() => true));
    // Spread over every shard, not queued on one.
    expect((await budgetShards.budgetShards(running.workspace_id, running.id)).every((units) => units > 0)).toBe(true);
  });
});
