/**
 * `npm run iam-report [Function…]`: what the functions' roles grant against what the local runs
 * used (local/iam/usage.ts): per function, the calls made and the statement that allowed each, the
 * grants no call exercised (a whole statement, or some of its actions), the calls refused and the
 * resources or settings the template lacks. Reads every file of `.local/iam-usage` (LOCAL_IAM_USAGE_DIR):
 * the last `npm test` run's and those of `npm start`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '#shared/service/operations';
import { loadTemplateModel } from '#local/iam/model-file';
import type { PolicyStatement } from '#local/iam/model';
import { usageDir, type CallUsage, type FunctionUsage, type Usage } from '#local/iam/usage';

const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
/** An ARN without what every canonical one has (`arn:aws:dynamodb:us-east-1:000000000000:`). */
const short = (arn: string) => arn.replace(/^arn:aws:([a-z0-9-]+):(us-east-1)?:(000000000000)?:/, '$1:').replace(/^arn:aws:s3:::/, 's3:');
/** Grants Lambda uses itself, never the function's code: its logs and X-Ray traces. */
const lambdasOwn = (action: string) => /^(logs|xray):/.test(action);

/** An IAM resource pattern (`*` any run of characters, `?` one) against an ARN. */
const matches = (pattern: string, arn: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(arn);

function merged(files: Usage[]): Record<string, FunctionUsage> {
  const functions: Record<string, FunctionUsage> = {};
  for (const usage of files) {
    for (const [name, used] of Object.entries(usage.functions)) {
      const into = (functions[name] ??= { calls: {}, refusals: [], mismatches: [], environment: {} });
      for (const [key, call] of Object.entries(used.calls)) {
        const known = (into.calls[key] ??= { ...call, resources: [] });
        for (const resource of call.resources) if (known.resources.length < 20 && !known.resources.includes(resource)) known.resources.push(resource);
      }
      for (const refusal of used.refusals) {
        if (!into.refusals.some((r) => JSON.stringify(r) === JSON.stringify(refusal))) into.refusals.push(refusal);
      }
      for (const mismatch of used.mismatches) {
        if (!into.mismatches.some((m) => m.message === mismatch.message && m.injected === mismatch.injected)) into.mismatches.push(mismatch);
      }
      Object.assign(into.environment, used.environment);
    }
  }
  return functions;
}

async function main() {
  const dir = usageDir();
  const names = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.json') && !file.startsWith('.')) : [];
  const files = names.map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Usage);
  const runs = [...new Set(files.map((usage) => usage.run))].sort();
  const model = await loadTemplateModel();
  const used = merged(files);
  const only = process.argv.slice(2);
  const out: string[] = [`Local IAM report: ${files.length} process files of runs ${runs.join(', ') || '(none)'} in ${dir}`, ''];
  const totals = { invoked: 0, statements: 0, unexercised: 0, partial: 0, refusals: 0, mismatches: 0 };

  for (const op of operations) {
    if (only.length && !only.includes(op.name)) continue;
    const fn = model.functions[op.name];
    const usage = used[op.name];
    out.push(`${op.name}  (role ${fn.role})`);
    if (!usage || Object.keys(usage.calls).length + usage.refusals.length + Object.keys(usage.environment).length === 0) {
      out.push('  no AWS call nor setting read in these runs', '');
      for (const policy of fn.policies) totals.statements += policy.document.Statement.length;
      continue;
    }
    totals.invoked++;
    const calls = Object.values(usage.calls).sort((a, b) => a.via.localeCompare(b.via) || a.action.localeCompare(b.action));
    out.push('  calls made (action, resources, statements that allowed it):');
    for (const call of calls) {
      const via = call.via === 'eventSource' ? ' [event source]' : '';
      const more = call.resources.length > 3 ? `, … (${call.resources.length >= 20 ? '20+' : call.resources.length})` : '';
      out.push(
        `    ${call.action.padEnd(32)} ${call.resources.slice(0, 3).map(short).join(', ')}${more}  ← ${call.statements.map((s) => `#${s.split('#')[1]}`).join(', ')}${via}`,
      );
    }
    const unexercised: string[] = [];
    const own: string[] = [];
    for (const policy of fn.policies) {
      policy.document.Statement.forEach((statement: PolicyStatement, i) => {
        totals.statements++;
        const id = `${policy.name}#${i + 1}`;
        const actions = list(statement.Action);
        const resources = list(statement.Resource).map(short).join(', ');
        if (actions.every(lambdasOwn)) return void own.push(`#${i + 1} ${actions.join(', ')}`);
        const granted = calls.filter((call: CallUsage) => call.statements.includes(id));
        const exercised = new Set(granted.map((call) => call.action));
        const idle = actions.filter((action) => !exercised.has(action));
        const patterns = list(statement.Resource);
        const idleResources = granted.length ? patterns.filter((pattern) => !granted.some((call) => call.resources.some((r) => matches(pattern, r)))) : [];
        if (idle.length === 0 && idleResources.length === 0) return;
        const local = actions.every((action) => action.startsWith('secretsmanager:')) ? ' (the local stack keeps secrets in files and the environment)' : '';
        if (idle.length === actions.length) totals.unexercised++;
        else totals.partial++;
        if (idle.length === actions.length)
          unexercised.push(
            `    #${i + 1} whole statement${local}: ${idle.join(', ')} on ${resources}${statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : ''}`,
          );
        else {
          if (idle.length) unexercised.push(`    #${i + 1} ${idle.join(', ')} (its other actions used)`);
          if (idleResources.length) unexercised.push(`    #${i + 1} on ${idleResources.map(short).join(', ')} (its other resources used)`);
        }
      });
    }
    if (unexercised.length) out.push('  grants no call exercised:', ...unexercised);
    if (own.length) out.push(`  Lambda's own (logs, traces; not the code's): ${own.join('; ')}`);
    if (usage.refusals.length) {
      out.push('  refused:');
      for (const r of usage.refusals)
        out.push(
          `    ${r.action} on ${short(r.resource)}${r.via === 'eventSource' ? ' [event source]' : ''}${r.injected ? ' (a test took the grant away)' : ''}`,
        );
      totals.refusals += usage.refusals.filter((r) => !r.injected).length;
    }
    if (usage.mismatches.length) {
      out.push('  not in the template:', ...usage.mismatches.map((m) => `    ${m.message}${m.injected ? ' (a test did it on purpose)' : ''}`));
      totals.mismatches += usage.mismatches.filter((m) => !m.injected).length;
    }
    const settings = Object.entries(usage.environment).sort(([a], [b]) => a.localeCompare(b));
    if (settings.length) out.push(`  settings read: ${settings.map(([name, source]) => `${name} (${source})`).join(', ')}`);
    out.push('');
  }
  out.push(
    `${totals.invoked} of ${operations.length} functions called AWS or read a setting; ${totals.statements} statements, ${totals.unexercised} of them exercised by no call, ` +
      `${totals.partial} in part; ${totals.refusals} calls refused and ${totals.mismatches} names or settings the template lacks (besides tests' own).`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
