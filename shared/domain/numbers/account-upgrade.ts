/**
 * The upgrade to account claims (contract §22): numbers connected before claims existed leave
 * their business accounts unclaimed. Each such account is claimed for the workspace that holds
 * its numbers (the one that connected one first, when two do), and an account whose numbers two
 * workspaces hold is reported for the operator to decide: nothing is disconnected or deleted.
 * Idempotent, run before every scheduled template sync (functions/templates/sync-all.ts).
 */
import { getAccountClaim, insertClaim } from '#shared/data/account-claim';
import { numbersOf } from '#shared/data/business-number';
import { logger } from '#shared/logger';
import type { Workspace } from '#shared/records/workspace';

export interface AccountUpgrade {
  /** Accounts claimed by this run. */
  claimed: string[];
  /** Accounts with numbers in more than one workspace: the one holding the claim, and the others. */
  contested: { waba_id: string; holder: string; others: string[] }[];
}

interface Holding {
  workspaceId: string;
  numbers: number;
  since: string;
}

/** Each account's connected numbers, per workspace: the first number counts from the workspace itself while it has no item yet. */
async function holdings(workspaces: Workspace[]): Promise<Map<string, Holding[]>> {
  const byAccount = new Map<string, Holding[]>();
  for (const workspace of workspaces) {
    const items = await numbersOf(workspace.id);
    const connected = items.filter((n) => n.status === 'connected').map((n) => ({ waba: n.waba_id, at: n.connected_at }));
    if (workspace.phone_number_id && workspace.waba_id && !items.some((n) => n.id === workspace.phone_number_id))
      connected.push({ waba: workspace.waba_id, at: workspace.created_at });
    for (const { waba, at } of connected) {
      const holders = byAccount.get(waba) ?? [];
      const mine = holders.find((h) => h.workspaceId === workspace.id);
      if (mine) Object.assign(mine, { numbers: mine.numbers + 1, since: at < mine.since ? at : mine.since });
      else byAccount.set(waba, [...holders, { workspaceId: workspace.id, numbers: 1, since: at }]);
    }
  }
  return byAccount;
}

export async function claimAccountsOfExistingNumbers(workspaces: Workspace[]): Promise<AccountUpgrade> {
  const upgrade: AccountUpgrade = { claimed: [], contested: [] };
  for (const [wabaId, holders] of await holdings(workspaces)) {
    let claim = await getAccountClaim(wabaId);
    if (!claim) {
      const [first] = [...holders].sort((a, b) => a.since.localeCompare(b.since));
      const written = {
        waba_id: wabaId,
        workspace_id: first.workspaceId,
        connected_by: 'operator' as const,
        number_count: first.numbers,
        claimed_at: first.since,
      };
      if (await insertClaim(written)) upgrade.claimed.push(wabaId);
      claim = await getAccountClaim(wabaId);
    }
    const others = holders.map((h) => h.workspaceId).filter((id) => id !== claim?.workspace_id);
    if (claim && others.length) {
      upgrade.contested.push({ waba_id: wabaId, holder: claim.workspace_id, others });
      logger.error('Business account held by more than one workspace: the operator decides (docs/security.md, "Upgrade")', {
        wabaId,
        holder: claim.workspace_id,
        others,
      });
    }
  }
  return upgrade;
}
