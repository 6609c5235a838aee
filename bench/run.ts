/**
 * `npm run bench`: starts the local stack, runs each benchmark, prints every figure with its
 * baseline and ratio, and writes bench/results.json. Budgets are pass/fail lines here, never in tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchFanout } from './fanout';
import { benchBulkImport } from './bulk-import';
import { benchColdStart } from './cold-start';
import { benchCapacity } from './capacity';
import { benchApiOverhead } from './api-overhead';
import { benchContext, type Figure } from './harness';

const benchmarks: [string, (ctx: Awaited<ReturnType<typeof benchContext>>) => Promise<Figure[]>][] = [
  ['cold start', benchColdStart],
  ['api', benchApiOverhead],
  ['capacity', benchCapacity],
  ['contacts', benchBulkImport],
  ['fanout', benchFanout],
];

const round = (n: number) => Math.round(n * 100) / 100;

type Printed = Figure & { group: string; ratio?: number; pass?: boolean };

function line(f: Printed): string {
  const baseline = f.baseline ? ` | baseline ${f.baseline.name}: ${round(f.baseline.value)} ${f.unit} | ratio ${round(f.ratio!)}×` : '';
  const budget = f.budget ? ` | budget ${f.budget.of === 'ratio' ? `≤ ${f.budget.max}×` : `≤ ${f.budget.max} ${f.unit}`}: ${f.pass ? 'PASS' : 'FAIL'}` : '';
  return `[${f.group}] ${f.name}: ${round(f.value)} ${f.unit}${baseline}${budget}`;
}

async function main() {
  const started = performance.now();
  const ctx = await benchContext();
  const figures: Printed[] = [];
  try {
    for (const [group, bench] of benchmarks) {
      for (const figure of await bench(ctx)) {
        const ratio = figure.baseline ? figure.value / figure.baseline.value : undefined;
        const measured = figure.budget?.of === 'ratio' ? ratio : figure.value;
        const pass = figure.budget && measured !== undefined ? measured <= figure.budget.max : undefined;
        const printed = { group, ...figure, ratio, pass };
        figures.push(printed);
        console.log(line(printed));
      }
    }
  } finally {
    await ctx.stack.stop();
  }
  const budgets = figures.filter((f) => f.budget);
  console.log(`\n${budgets.filter((f) => f.pass).length} of ${budgets.length} budget lines pass; ${Math.round((performance.now() - started) / 1000)} s in all.`);
  for (const f of budgets.filter((f) => !f.pass)) console.log(`FAIL ${line(f)}`);
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), figures }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
