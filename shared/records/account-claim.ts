/**
 * A business account (WABA) held by one workspace (contract §22): every platform call the service
 * makes for a workspace stays inside the accounts it holds.
 */
export interface AccountClaim {
  waba_id: string;
  workspace_id: string;
  /**
   * Who connected the account for the workspace: the deployment's shared token may act on it only
   * when the operator did (`operator`: the operator's routes, Embedded Signup, a workspace's first
   * number); a workspace connecting one on its own (`workspace`) used a token of its own.
   */
  connected_by: ClaimedBy;
  /** The workspace's connected numbers in the account; 0 while an Embedded Signup has claimed it but not yet connected its number. */
  number_count: number;
  claimed_at: string;
}

export type ClaimedBy = 'operator' | 'workspace';
