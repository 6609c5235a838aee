/**
 * `npm run bench`: starts the local stack, runs each benchmark, prints every figure with its
 * baseline and ratio, and writes bench/results.json. Budgets are pass/fail lines here, never in tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchBulkImport } from './bulk-import';
import { benchCampaign } from './campaign';
import { benchContext, type Figure } from './harness';

const benchmarks: [string, (ctx: Awaited<ReturnType<typeof benchContext>>) => Promise<Figure[]>][] = [
  ['contacts', benchBulkImport],
  ['campaigns', benchCampaign],
];

const round = (n: number) => Math.round(n * 100) / 100;

async function main() {
  const ctx = await benchContext();
  const figures: (Figure & { group: string; ratio?: number; pass?: boolean })[] = [];
  try {
    for (const [group, bench] of benchmarks) {
      for (const figure of await bench(ctx)) {
        const ratio = figure.baseline ? figure.value / figure.baseline.value : undefined;
        const measured = figure.budget?.of === 'ratio' ? ratio : figure.value;
        const pass = figure.budget && measured !== undefined ? measured <= figure.budget.max : undefined;
        figures.push({ group, ...figure, ratio, pass });
      }
    }
  } finally {
    await ctx.stack.stop();
  }
  for (const f of figures) {
    const baseline = f.baseline ? ` | baseline ${f.baseline.name}: ${round(f.baseline.value)} ${f.unit} | ratio ${round(f.ratio!)}×` : '';
    const budget = f.budget ? ` | budget ${f.budget.of === 'ratio' ? `≤ ${f.budget.max}×` : `≤ ${f.budget.max} ${f.unit}`}: ${f.pass ? 'PASS' : 'FAIL'}` : '';
    console.log(`[${f.group}] ${f.name}: ${round(f.value)} ${f.unit}${baseline}${budget}`);
  }
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), figures }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
