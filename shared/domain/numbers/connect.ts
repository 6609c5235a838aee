import { disconnectNumber, insertNumber, workspaceIdOfNumber } from '#shared/data/business-number';
import { firstNumberSet, updateSettings } from '#shared/data/workspace';
import { forgetWorkspace } from '#shared/domain/workspaces';
import { runningCampaignsFrom } from '#shared/domain/campaigns/lifecycle';
import { detailsFromPlatform, defaultNumberId, forgetNumbers, workspaceNumbers, numberView, type NumberView } from '#shared/domain/numbers/numbers';
import { onPlatform } from '#shared/domain/platform-calls';
import { syncTemplates } from '#shared/domain/templates/catalog';
import { logger } from '#shared/logger';
import { errors } from '#shared/errors';
import { fetchAccountNumberIds, fetchPhoneNumber, subscribeApp } from '#shared/platform/graph-client';
import { accessTokenFor, ownAccessToken } from '#shared/platform/secrets';
import { claimAccount, dropEmptyClaim, getAccountClaim } from '#shared/data/account-claim';
import type { AccountClaim, ClaimedBy } from '#shared/records/account-claim';
import type { BusinessNumber } from '#shared/records/business-number';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/** How a number is connected: who asks (contract §22), and which steps the caller leaves to its own steps (an onboarding's). */
export interface ConnectOptions {
  by: ClaimedBy;
  /** Onboarding subscribes in a step of its own, whose failure it records. */
  subscribe?: boolean;
  /** Onboarding syncs in a step of its own, whose failure it records. */
  syncTemplates?: boolean;
}

const accountInUse = (wabaId: string) => errors.refused('account_in_use', `Business account ${wabaId} is held by another workspace`);
const numberInUse = (phoneNumberId: string) => errors.refused('number_in_use', `Number ${phoneNumberId} is connected to another workspace`);

/**
 * The token a connection reads the account with: the workspace's own, else the shared one when the
 * operator connects the account, or connected it for the workspace before (contract §22). A
 * workspace with no token of its own reaches no other account: the platform lists nothing for it.
 */
async function connectingToken(workspace: Workspace, wabaId: string, by: ClaimedBy, claim: AccountClaim | undefined): Promise<string> {
  const own = await ownAccessToken(workspace.id);
  if (own) return own;
  if (by === 'operator' || claim?.connected_by === 'operator') return accessTokenFor(workspace.id);
  throw errors.refused(
    'number_not_in_account',
    `No token of this workspace reaches business account ${wabaId}: the operator connects a new account for it (POST /admin/v1/workspaces/{id}/numbers or Embedded Signup)`,
    [{ field: 'waba_id', message: 'The workspace has no platform token of its own for this account' }],
  );
}

/**
 * The account is checked before anything is claimed: not held by another workspace (409
 * `account_in_use`), its number not by another either (409 `number_in_use`), and listing the
 * number with the token the workspace will use (422 `number_not_in_account`). Answers the token
 * and the claim as read.
 */
export async function checkAccount(workspace: Workspace, input: { phone_number_id: string; waba_id: string }, by: ClaimedBy) {
  const claim = await refuseHeldElsewhere(input, workspace.id);
  const token = await connectingToken(workspace, input.waba_id, by, claim);
  await requireListed(input, token);
  return { token, claim };
}

/** 409 when another workspace holds the account (`account_in_use`) or the number (`number_in_use`); the account's claim as read. */
export async function refuseHeldElsewhere(input: { phone_number_id: string; waba_id: string }, workspaceId?: string): Promise<AccountClaim | undefined> {
  const [claim, numberHolder] = await Promise.all([getAccountClaim(input.waba_id), workspaceIdOfNumber(input.phone_number_id)]);
  if (claim && claim.workspace_id !== workspaceId) throw accountInUse(input.waba_id);
  if (numberHolder && numberHolder !== workspaceId) throw numberInUse(input.phone_number_id);
  return claim;
}

/** 422 `number_not_in_account` unless the platform, asked with this token, lists the number in the account. */
export async function requireListed(input: { phone_number_id: string; waba_id: string }, token: string): Promise<void> {
  const listed = await onPlatform("list the business account's numbers", () => fetchAccountNumberIds(input.waba_id, token));
  if (!listed.includes(input.phone_number_id))
    throw errors.refused('number_not_in_account', `The platform does not list number ${input.phone_number_id} in business account ${input.waba_id}`, [
      { field: 'phone_number_id', message: `Not a number of business account ${input.waba_id}` },
    ]);
}

/**
 * POST /numbers (contract §17, §22): the account checked (above) and the number read from the
 * platform; then the account is claimed, so two workspaces at once cannot both go on, and only the
 * one that did subscribes the app to the account's webhooks; then the number is claimed with the
 * account's count in one transaction, and its account's templates synced. A refusal or a failed
 * platform step leaves nothing claimed and nothing subscribed.
 */
export async function connectNumber(workspace: Workspace, input: { phone_number_id: string; waba_id: string }, options: ConnectOptions): Promise<NumberView> {
  const { token, claim } = await checkAccount(workspace, input, options.by);
  const platform = await onPlatform('read the number', () => fetchPhoneNumber(input.phone_number_id, token));
  const at = nowIso();
  if (options.subscribe !== false) {
    if (!(await claimAccount(input.waba_id, workspace.id, options.by, at))) throw accountInUse(input.waba_id);
    try {
      await onPlatform("subscribe the app to the business account's webhooks", () => subscribeApp(input.waba_id, token));
    } catch (error) {
      // Only a claim this connection made is undone; one that holds numbers or an onboarding's stays.
      if (!claim) await dropEmptyClaim(input.waba_id, workspace.id);
      throw error;
    }
  }
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
  const outcome = await insertNumber(number, options.by, first ? firstNumberSet(workspace.id, number.id, number.waba_id) : undefined);
  if (outcome !== 'inserted' && !claim) await dropEmptyClaim(input.waba_id, workspace.id);
  if (outcome === 'account_in_use') throw accountInUse(input.waba_id);
  if (outcome === 'in_use') throw numberInUse(input.phone_number_id);
  if (outcome === 'connected') throw errors.invalidState(`Number ${input.phone_number_id} is already connected to this workspace`);
  forgetNumbers(workspace.id);
  if (first) forgetWorkspace(workspace.id);
  const connectedTo: Workspace = first ? { ...workspace, phone_number_id: number.id, waba_id: number.waba_id } : workspace;
  if (options.syncTemplates === false) return numberView(connectedTo, number);
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
  const claim = await getAccountClaim(numbers.find((n) => n.id === id)!.waba_id);
  // The claim is this workspace's to release (one from before claims existed may be missing).
  const own = claim?.workspace_id === workspace.id ? claim : undefined;
  if (!(await disconnectNumber(workspace.id, id, nowIso(), own))) throw errors.invalidState('The number changed while it was being disconnected');
  forgetNumbers(workspace.id);
}
