/**
 * Onboarding a business through the platform's Embedded Signup (contract §19): the code its
 * signup gave the operator's page becomes the workspace's own token (kept in its secret, never in
 * the table), its number is registered and connected, its templates synced. Each step is recorded
 * on the workspace; a repeated request resumes after the last step that succeeded.
 */
import { createHash, randomInt } from 'node:crypto';
import { updateSettings } from '#shared/data/workspace';
import { checkAccount, connectNumber } from '#shared/domain/numbers/connect';
import { claimAccount } from '#shared/data/account-claim';
import { workspaceNumbers } from '#shared/domain/numbers/numbers';
import { onPlatform } from '#shared/domain/platform-calls';
import { syncTemplates } from '#shared/domain/templates/catalog';
import { forgetWorkspace } from '#shared/domain/workspaces';
import { DomainError, errors, isDomainError } from '#shared/errors';
import { exchangeCode, registerNumber, subscribeApp } from '#shared/platform/graph-client';
import { accessTokenFor, platformSecrets } from '#shared/platform/secrets';
import { storeWorkspaceSecret, workspaceSecret } from '#shared/platform/workspace-secrets';
import { ONBOARDING_STEPS, type Onboarding, type OnboardingMode, type OnboardingStepName } from '#shared/records/onboarding';
import { updateNumberDetails } from '#shared/data/business-number';
import { requestAppData } from '#shared/platform/app-data';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

export interface OnboardingInput {
  code: string;
  phone_number_id: string;
  waba_id: string;
  pin?: string;
  mode?: OnboardingMode;
}

const started = (input: OnboardingInput, at: string): Onboarding => ({
  phone_number_id: input.phone_number_id,
  waba_id: input.waba_id,
  mode: input.mode ?? 'cloud_api',
  status: 'in_progress',
  steps: ONBOARDING_STEPS.map((name) => ({ name, status: 'pending', at: null, error: null })),
  started_at: at,
  updated_at: at,
});

/** The PIN registration sets: the operator's, else the one kept from an earlier attempt, else a new random one (kept in the secret). */
async function pinFor(workspace: Workspace, input: OnboardingInput, token: string): Promise<string> {
  if (input.pin) return input.pin;
  const kept = (await workspaceSecret(workspace.id))?.pin;
  if (kept) return kept;
  const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await storeWorkspaceSecret(workspace.id, { ...(await workspaceSecret(workspace.id)), access_token: token, pin });
  return pin;
}

/** What each step does; every platform call through onPlatform, so a refusal is 422 `platform_error` with the platform's code. */
const steps: Record<OnboardingStepName, (workspace: Workspace, input: OnboardingInput) => Promise<unknown>> = {
  exchange_code: async (workspace, input) => {
    const code_sha256 = createHash('sha256').update(input.code).digest('hex');
    // Already exchanged for this workspace (a request that stored the token but not the step, or one running alongside).
    if ((await workspaceSecret(workspace.id))?.code_sha256 === code_sha256) return;
    const { app_id, app_secret } = await platformSecrets();
    if (!app_id || !app_secret)
      throw errors.invalidState("The platform secret has no app_id or app_secret: the code cannot be exchanged (docs/operator.md, 'Onboarding')");
    const token = await onPlatform('exchange the Embedded Signup code for a business token', () =>
      exchangeCode({ appId: app_id, appSecret: app_secret, code: input.code }),
    );
    await storeWorkspaceSecret(workspace.id, { access_token: token, code_sha256 });
  },
  // The account becomes this workspace's before anything is done on it (contract §22): its number listed in it, no other workspace holding it.
  claim_account: async (workspace, input) => {
    await checkAccount(workspace, input, 'operator');
    if (!(await claimAccount(input.waba_id, workspace.id, 'operator', nowIso())))
      throw errors.refused('account_in_use', `Business account ${input.waba_id} is held by another workspace`);
  },
  // A coexistence number is registered already: the app uses it (docs/platform-coexistence.md §1, "skip the phone number registration step").
  register_number: async (workspace, input) => {
    if (input.mode === 'coexistence') return;
    const token = await accessTokenFor(workspace.id);
    const pin = await pinFor(workspace, input, token);
    await onPlatform('register the number for the Cloud API', () => registerNumber(input.phone_number_id, token, pin));
  },
  subscribe_app: async (workspace, input) => {
    const token = await accessTokenFor(workspace.id);
    await onPlatform("subscribe the app to the business account's webhooks", () => subscribeApp(input.waba_id, token));
  },
  // The number becomes usable here only, after it is registered and the app subscribed.
  connect_number: async (workspace, input) => {
    const connected = (await workspaceNumbers(workspace)).some((n) => n.id === input.phone_number_id && n.status === 'connected');
    if (!connected) await connectNumber(workspace, input, { by: 'operator', subscribe: false, syncTemplates: false });
    // The platform's fixed throughput for a number shared with the app (docs/platform-coexistence.md §4).
    if (input.mode === 'coexistence')
      await updateNumberDetails(workspace.id, input.phone_number_id, {
        coexistence: { status: 'shared', since: nowIso(), reason: null },
        throughput_mps: COEXISTENCE_THROUGHPUT,
        updated_at: nowIso(),
      });
  },
  sync_templates: (workspace, input) => syncTemplates(workspace, input.waba_id),
  // The app's contacts and chats, asked for once each; they arrive by webhook (history may take days, or never come).
  sync_app_data: async (workspace, input) => {
    if (input.mode !== 'coexistence') return;
    const token = await accessTokenFor(workspace.id);
    for (const syncType of ['smb_app_state_sync', 'history'] as const)
      await onPlatform(`ask for the app's ${syncType === 'history' ? 'chat history' : 'contacts'}`, () =>
        requestAppData(input.phone_number_id, token, syncType),
      );
  },
};

/** Messages per second the platform allows a number shared with the WhatsApp Business app. */
const COEXISTENCE_THROUGHPUT = 20;

/** The platform's own code of a failure, when the domain error carries it (contract §2: `details` `code`). */
const platformCodeOf = (error: DomainError<string>): number | null => {
  const code = error.details?.find((d) => d.field === 'code')?.message;
  return code !== undefined && /^\d+$/.test(code) ? Number(code) : null;
};

/** The failure as answered: its own code and status, with the step named first in `details`. */
const naming = (error: DomainError<string>, step: OnboardingStepName) =>
  new DomainError(
    error.code,
    `Onboarding step ${step} failed: ${error.message}`,
    [{ field: 'step', message: step }, ...(error.details ?? [])],
    error.unprocessable,
  );

async function save(workspace: Workspace, onboarding: Onboarding): Promise<Workspace> {
  const updated = await updateSettings(workspace.id, { onboarding: { ...onboarding, updated_at: nowIso() } });
  if (!updated) throw errors.notFound('Workspace');
  forgetWorkspace(workspace.id);
  return updated;
}

/**
 * Runs the steps not yet succeeded, in order, recording each. The same number and business
 * account as the recorded onboarding: it resumes (a completed one answers as it is); another
 * number starts anew. A failed step is recorded and its error thrown, naming the step.
 */
export async function onboard(workspace: Workspace, input: OnboardingInput): Promise<Workspace> {
  const recorded = workspace.onboarding;
  const resumes =
    recorded?.phone_number_id === input.phone_number_id && recorded.waba_id === input.waba_id && (recorded.mode ?? 'cloud_api') === (input.mode ?? 'cloud_api');
  const onboarding: Onboarding = resumes ? structuredClone(recorded) : started(input, nowIso());
  if (onboarding.status === 'completed') return workspace;
  let current = await save(workspace, { ...onboarding, status: 'in_progress' });
  for (const step of onboarding.steps) {
    if (step.status === 'succeeded') continue;
    try {
      await steps[step.name](current, input);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      Object.assign(step, { status: 'failed', at: nowIso(), error: { code: error.code, message: error.message, platform_code: platformCodeOf(error) } });
      await save(current, { ...onboarding, status: 'failed' });
      throw naming(error, step.name);
    }
    Object.assign(step, { status: 'succeeded', at: nowIso(), error: null });
    current = await save(current, { ...onboarding, status: 'in_progress' });
  }
  return save(current, { ...onboarding, status: 'completed' });
}
