import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TemplateModel } from '#local/iam/model';

/**
 * The template's model (local/iam/model.ts) as a file: synthesized once per version of the sources
 * and kept in `.local/iam`, and passed to the processes that check calls through LOCAL_IAM_MODEL.
 */

const root = resolve(__dirname, '../..');

/** Everything the app's templates are made from: the model is synthesized again when any of it changes. */
function sourcesKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, entry);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.(ts|json|cjs)$/.test(entry)) hash.update(path).update(readFileSync(join(root, path)));
    }
  };
  for (const dir of ['lib', 'shared', 'local/iam']) walk(dir);
  for (const file of ['package-lock.json', 'cdk.json']) if (existsSync(join(root, file))) hash.update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Where the synthesized model is kept, by the key of its sources: a second start or test run reads it instead of synthesizing. */
const cacheDir = () => resolve(process.env.LOCAL_IAM_CACHE_DIR ?? join(root, '.local', 'iam'));

/**
 * The model's file: LOCAL_IAM_MODEL if set (jest's global set-up and a local stack pass it on to
 * their workers and children), else the cached synthesis of the current sources, synthesized
 * (a few seconds) if there is none. Sets LOCAL_IAM_MODEL for the processes this one starts.
 */
export async function templateModelFile(): Promise<string> {
  const given = process.env.LOCAL_IAM_MODEL;
  if (given) return given;
  const file = join(cacheDir(), `template-model-${sourcesKey()}.json`);
  if (!existsSync(file)) {
    // Only here is the CDK app loaded: a process given the file never pays for it.
    const { buildTemplateModel } = await import('#local/iam/template-model');
    const model = buildTemplateModel();
    mkdirSync(cacheDir(), { recursive: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(model));
    renameSync(partial, file);
  }
  process.env.LOCAL_IAM_MODEL = file;
  return file;
}

export const loadTemplateModel = async (): Promise<TemplateModel> => JSON.parse(readFileSync(await templateModelFile(), 'utf8')) as TemplateModel;

/** LOCAL_IAM=off: the local stack neither checks nor records its functions' AWS calls and settings (benchmarks that time the service alone). */
export const localChecksOn = () => process.env.LOCAL_IAM !== 'off';
