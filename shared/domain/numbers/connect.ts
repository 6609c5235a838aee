import { disconnectNumber, insertNumber } from '#shared/data/business-number';
import { firstNumberSet, updateSettings } from '#shared/data/workspace';
import { forgetWorkspace } from '#shared/domain/workspaces';
import { runningCampaignsFrom } from '#shared/domain/campaigns/lifecycle';
import { detailsFromPlatform, defaultNumberId, forgetNumbers, workspaceNumbers, numberView, type NumberView } from '#shared/domain/numbers/numbers';
import { onPlatform } from '#shared/domain/platform-calls';
import { syncTemplates } from '#shared/domain/templates/catalog';
import { logger } from '#shared/logger';
import { errors } from '#shared/errors';
import { fetchPhoneNumber, subscribeApp } from '#shared/platform/graph-client';
import { accessTokenFor } from '#shared/platform/secrets';
import type { BusinessNumber } from '#shared/records/business-number';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/**
 * POST /numbers (contract §17): reads the number from the platform, subscribes the app to its
 * business account's webhooks, claims it (one workspace per number, decided by the table), then
 * syncs that account's templates. Platform steps come first: a refusal leaves nothing stored.
 */
export async function connectNumber(
  workspace: Workspace,
  input: { phone_number_id: string; waba_id: string },
  /** Onboarding syncs in a step of its own, whose failure it records. */
  options = { syncTemplates: true },
): Promise<NumberView> {
  const token = await accessTokenFor(workspace.id);
  const platform = await onPlatform('read the number', () => fetchPhoneNumber(input.phone_number_id, token));
  await onPlatform("subscribe the app to the business account's webhooks", () => subscribeApp(input.waba_id, token));
  const at = nowIso();
  const number: BusinessNumber = {
    id: input.phone_number_id,
    workspace_id: workspace.id,
    waba_id: input.waba_id,
    ...detailsFromPlatform(platform),
    status: 'connected',
    connected_at: at,
    updated_at: at,
  };
  await workspaceNumbers(workspace); // the first number's item exists before another joins it
  // A workspace created without a number (for onboarding, contract §19): this one becomes its first.
  const first = !workspace.phone_number_id;
  const outcome = await insertNumber(number, first ? firstNumberSet(workspace.id, number.id, number.waba_id) : undefined);
  if (outcome === 'in_use') throw errors.refused('number_in_use', `Number ${input.phone_number_id} is connected to another workspace`);
  if (outcome === 'connected') throw errors.invalidState(`Number ${input.phone_number_id} is already connected to this workspace`);
  forgetNumbers(workspace.id);
  if (first) forgetWorkspace(workspace.id);
  const connectedTo: Workspace = first ? { ...workspace, phone_number_id: number.id, waba_id: number.waba_id } : workspace;
  if (!options.syncTemplates) return numberView(connectedTo, number);
  try {
    await syncTemplates(connectedTo, input.waba_id);
  } catch (error) {
    // The number is connected; its account's templates follow with the next sync (every 15 minutes) or status push.
    logger.warn('Template sync after connecting a number failed', { workspaceId: workspace.id, wabaId: input.waba_id, error: (error as Error).message });
  }
  return numberView(connectedTo, number);
}

async function requireNumber(workspace: Workspace, id: string): Promise<BusinessNumber> {
  const number = (await workspaceNumbers(workspace)).find((n) => n.id === id && n.status === 'connected');
  if (!number) throw errors.notFound('Number');
  return number;
}

/** PATCH /numbers/{id} `{ is_default: true }`: sends without `from` go out from it. */
export async function makeDefault(workspace: Workspace, id: string): Promise<NumberView> {
  const number = await requireNumber(workspace, id);
  const updated = await updateSettings(workspace.id, { default_number_id: id });
  if (!updated) throw errors.notFound('Workspace');
  forgetWorkspace(workspace.id);
  return numberView(updated, number);
}

/**
 * DELETE /numbers/{id}: disconnects it; its messages stay. Not the only number, not the default
 * (make another the default first), not one a running campaign sends from.
 */
export async function disconnect(workspace: Workspace, id: string): Promise<void> {
  const numbers = (await workspaceNumbers(workspace)).filter((n) => n.status === 'connected');
  if (!numbers.some((n) => n.id === id)) throw errors.notFound('Number');
  if (numbers.length === 1) throw errors.invalidState('The only number of a workspace cannot be disconnected');
  if (id === defaultNumberId(workspace)) throw errors.invalidState('The default number cannot be disconnected: make another number the default first');
  if ((await runningCampaignsFrom(workspace, id)).length) throw errors.invalidState('A running campaign sends from this number');
  if (!(await disconnectNumber(workspace.id, id, nowIso()))) throw errors.invalidState('The number changed while it was being disconnected');
  forgetNumbers(workspace.id);
}
