import { median, timed, type BenchContext, type Figure } from './harness';

const RECIPIENTS = 1000;
const RUNS = 2;

/**
 * Launch → completed for a 1,000-recipient campaign on the local stack, with the phases:
 * launch request, fan-out (all messages stored), sending (no message pending). The floor is
 * the per-number throughput bound (80 messages/s: 12.5 s for 1,000).
 */
export async function benchCampaign(ctx: BenchContext): Promise<Figure[]> {
  const launchMs: number[] = [];
  const fanoutMs: number[] = [];
  const completeMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const ws = await ctx.workspace();
    await ctx.call('POST', '/api/v1/templates/sync', ws.key);
    const campaign = (await ctx.call('POST', '/api/v1/campaigns', ws.key, { name: 'bench', template_name: 'welcome' })).body.data;
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ phone: `+1415${String(5550000 + i * 7).padStart(7, '0')}`, variables: [`R${i}`] }));
    const start = performance.now();
    const launch = await timed(() => ctx.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, ws.key, { recipients }));
    if (launch.result.status !== 202) throw new Error(`launch failed: ${JSON.stringify(launch.result.body)}`);
    launchMs.push(launch.ms);
    let fanoutDone = 0;
    for (;;) {
      const { metrics, status } = (await ctx.call('GET', `/api/v1/campaigns/${campaign.id}/results`, ws.key)).body.data;
      if (!fanoutDone && metrics.total_messages === RECIPIENTS) fanoutDone = performance.now() - start;
      if (status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    fanoutMs.push(fanoutDone);
    completeMs.push(performance.now() - start);
  }
  const floor = (RECIPIENTS / 80) * 1000;
  return [
    { name: `campaign launch request (${RECIPIENTS} recipients)`, value: median(launchMs), unit: 'ms' },
    { name: `campaign fan-out: launch → ${RECIPIENTS} messages stored`, value: median(fanoutMs), unit: 'ms' },
    {
      name: `campaign launch → completed (${RECIPIENTS} recipients, median of ${RUNS})`,
      value: median(completeMs),
      unit: 'ms',
      baseline: { name: 'throughput floor at 80 messages/s per number', value: floor },
    },
  ];
}
