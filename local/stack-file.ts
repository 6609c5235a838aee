import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the local stack keeps its data and tells other commands (admin, tests) how to reach it. */
export const localDir = () => resolve(process.env.LOCAL_DIR ?? '.local');

/** Written by `npm start` once the stack is up; read by the admin command. */
export interface StackInfo {
  pid: number;
  base_url: string;
  simulator_url: string;
  dynamodb_endpoint: string;
  table_name: string;
  graph_api_version: string;
  platform_secrets: { app_secret: string; verify_token: string; access_token: string; app_id?: string };
  /** With DEPENDENCY_FAULTS=on: the fault proxies' base URLs (local/fault-proxy.ts). */
  fault_proxies?: { dynamodb: string; sqs: string };
}

export interface Credentials {
  base_url: string;
  api_key: string;
  workspace_id: string;
  phone_number_id: string;
  /** The demo workspace's business account, which the platform's template and account webhooks name. */
  waba_id: string;
  simulator_url: string;
  /** The operator's key for /admin/v1 (contract §19): a new one each start, so a key of an earlier start no longer works. */
  operator_key: string;
}

const file = (name: string) => join(localDir(), name);

export function writeJson(name: 'stack.json' | 'credentials.json', value: StackInfo | Credentials): void {
  mkdirSync(localDir(), { recursive: true });
  writeFileSync(file(name), `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}

export function readJson<T extends StackInfo | Credentials>(name: 'stack.json' | 'credentials.json'): T | undefined {
  return existsSync(file(name)) ? (JSON.parse(readFileSync(file(name), 'utf8')) as T) : undefined;
}
