import { createKey } from '#shared/domain/api-keys';
import { createWorkspace, getWorkspace } from '#shared/domain/workspaces';
import { readJson, writeJson, type Credentials } from '#local/stack-file';
import { randomDigits } from '#local/random';

/** Creates the demo workspace (plan pro) and its key once; later starts reuse them while the data persists. This start's operator key is written beside them. */
export async function ensureDemoWorkspace(baseUrl: string, simulatorUrl: string, operatorKey: string): Promise<Credentials> {
  const saved = readJson<Credentials>('credentials.json');
  const existing = saved && (await getWorkspace(saved.workspace_id));
  if (saved && existing) {
    const credentials = { ...saved, waba_id: existing.waba_id ?? saved.waba_id, base_url: baseUrl, simulator_url: simulatorUrl, operator_key: operatorKey };
    writeJson('credentials.json', credentials);
    return credentials;
  }
  const workspace = await createWorkspace({ name: 'Demo', plan: 'pro', phone_number_id: randomDigits(15), waba_id: randomDigits(15) });
  const key = await createKey(workspace.id, { name: 'Demo key', description: 'Created by npm start' });
  const credentials: Credentials = {
    base_url: baseUrl,
    api_key: key.api_key,
    workspace_id: workspace.id,
    phone_number_id: workspace.phone_number_id,
    waba_id: workspace.waba_id,
    simulator_url: simulatorUrl,
    operator_key: operatorKey,
  };
  writeJson('credentials.json', credentials);
  return credentials;
}
