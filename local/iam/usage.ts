import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What the functions did under the local checks, per function: each AWS call's action and the
 * statements of its role that allowed it (with a few of the resources called), the calls refused,
 * the calls naming what the template lacks, and the environment variables read. Each process (each
 * jest test file: its own module registry) writes its own file, again whenever something new is
 * seen; `npm run iam-report` (scripts/iam-report.ts) merges them.
 */
export interface Usage {
  run: string;
  pid: number;
  functions: Record<string, FunctionUsage>;
}

export interface FunctionUsage {
  /** By `<via> <action> <statements>`: one entry per action and the statements that allowed it. */
  calls: Record<string, CallUsage>;
  refusals: RefusalUsage[];
  /** Calls naming a resource (or a command) the template has no counterpart of, and settings read that it does not set. */
  mismatches: MismatchUsage[];
  /** Each variable read through shared/config.ts, and what set it: `template`, `lambda`, `local`, `default` (a tunable left to its default), or `missing`. */
  environment: Record<string, string>;
}

export interface CallUsage {
  action: string;
  /** `code`: the function's own call; `eventSource`: Lambda's poller of its trigger, with its role. */
  via: string;
  /** The statements that allowed it: `<policy>#<index>`, index 1-based as in the policy document. */
  statements: string[];
  /** Up to twenty of the resources called (enough to tell which of a statement's resources were used). */
  resources: string[];
}

export interface MismatchUsage {
  message: string;
  /** A test's own doing: it changed the function's template, or called what the template lacks on purpose. */
  injected: boolean;
}

export interface RefusalUsage {
  action: string;
  resource: string;
  via: string;
  /** A test's own doing: it took a statement away (local/iam/enforcement.ts, `localChecks.withoutStatement`). */
  injected: boolean;
}

/** Where the runs write: LOCAL_IAM_USAGE_DIR, else `.local/iam-usage` of the project. */
export const usageDir = () => resolve(process.env.LOCAL_IAM_USAGE_DIR ?? join(__dirname, '..', '..', '.local', 'iam-usage'));

const usage: Usage = { run: '', pid: process.pid, functions: {} };
/** This process's file, named at its first write: `<run>-<pid>-<id>.json`, the run being LOCAL_IAM_RUN (`test`, `start`). */
let file: string | undefined;

const of = (functionName: string): FunctionUsage => (usage.functions[functionName] ??= { calls: {}, refusals: [], mismatches: [], environment: {} });

/** Writes this process's file whole (small: only what is distinct is kept). */
function write(): void {
  if (!file) {
    usage.run = process.env.LOCAL_IAM_RUN ?? 'local';
    file = `${usage.run}-${process.pid}-${randomUUID().slice(0, 8)}.json`;
  }
  const dir = usageDir();
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, `.${file}`);
  writeFileSync(partial, JSON.stringify(usage));
  renameSync(partial, join(dir, file));
}

export function recordCall(functionName: string, call: { action: string; resource: string; via: string; statements: string[] }): void {
  const key = `${call.via} ${call.action} ${call.statements.join(',')}`;
  const calls = of(functionName).calls;
  const known = calls[key];
  if (!known) {
    calls[key] = { action: call.action, via: call.via, statements: call.statements, resources: [call.resource] };
    write();
  } else if (known.resources.length < 20 && !known.resources.includes(call.resource)) {
    known.resources.push(call.resource);
    write();
  }
}

export function recordRefusal(functionName: string, refusal: RefusalUsage): void {
  const refusals = of(functionName).refusals;
  const same = (r: RefusalUsage) => r.action === refusal.action && r.resource === refusal.resource && r.via === refusal.via && r.injected === refusal.injected;
  if (refusals.some(same)) return;
  refusals.push(refusal);
  write();
}

export function recordMismatch(functionName: string, mismatch: MismatchUsage): void {
  const mismatches = of(functionName).mismatches;
  if (mismatches.some((m) => m.message === mismatch.message && m.injected === mismatch.injected)) return;
  mismatches.push(mismatch);
  write();
}

export function recordEnvironmentRead(functionName: string, name: string, source: string): void {
  const environment = of(functionName).environment;
  if (environment[name] === source) return;
  environment[name] = source;
  write();
}

/**
 * What a run's functions did that would fail once deployed, from its processes' files: calls refused
 * and names or settings the template lacks, tests' own doings left out. One line each.
 */
export function unexpectedFailures(run: string): string[] {
  const dir = usageDir();
  if (!existsSync(dir)) return [];
  const lines = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.startsWith(`${run}-`) && name.endsWith('.json'))) {
    const { functions } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Usage;
    for (const [name, used] of Object.entries(functions)) {
      for (const r of used.refusals)
        if (!r.injected) lines.add(`${name}${r.via === 'eventSource' ? "'s event source" : ''} was refused ${r.action} on ${r.resource}`);
      for (const m of used.mismatches) if (!m.injected) lines.add(m.message.startsWith(name) ? m.message : `${name}: ${m.message}`);
    }
  }
  return [...lines].sort();
}
