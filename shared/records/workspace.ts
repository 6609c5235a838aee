import type { Onboarding } from '#shared/records/onboarding';

/** A workspace: its business numbers (the first one named here, the others in their own records, contract §17) and its settings. */
export const PLANS = ['starter', 'growth', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  /**
   * The workspace's first number, and its business account: a workspace from before several
   * numbers (§17) has only this one. Absent until its first number is connected (a workspace
   * created without one, for onboarding, contract §19); a workspace with messages has one.
   */
  phone_number_id?: string;
  waba_id?: string;
  /** The number sends use without `from`; absent: the first number. */
  default_number_id?: string;
  /** Inbound texts that opt a customer out of marketing (contract §13); DEFAULT_STOP_WORDS when unset. */
  stop_words?: string[];
  /** Requests per second the operator set for this workspace; the plan's (contract §14) when unset. */
  rate_limit?: number;
  /** Set by the operator (contract §19): its keys are refused with 403 `workspace_suspended` and its queued sends wait. */
  suspended?: boolean;
  /** When it was last suspended: its waiting sends look again less often after the first hour. */
  suspended_at?: string;
  /** Its Embedded Signup onboarding, once started (its token is in its secret, never here). */
  onboarding?: Onboarding;
  /** `deleting` from the operator's DELETE until the erasure ends and the workspace is gone (contract §19); absent: active. */
  status?: 'deleting';
  /** The erasure's progress, while `deleting` (docs/operator.md, "Erasure"). */
  erasure?: WorkspaceErasure;
  created_at: string;
}

/** The steps of an erasure, in order: two passes over the table (the second after the late writers' grace), then media, then the secret. */
export const ERASURE_STEPS = ['table', 'grace', 'recheck', 'media', 'secret'] as const;
export type ErasureStep = (typeof ERASURE_STEPS)[number];

/** How far an erasure has come; each job writes it conditioned on `version`, so two jobs never both go on from the same point. */
export interface WorkspaceErasure {
  requested_at: string;
  step: ErasureStep;
  /** The numbers it held when the erasure began: their items keyed by number (claim, pause, pace, send rate) go too. */
  numbers: string[];
  /** Where the step's scan of the table goes on from; absent at its start. */
  cursor?: Record<string, unknown>;
  /** When the grace before the second pass ends (epoch ms). */
  grace_until?: number;
  items_deleted: number;
  media_deleted: number;
  /** +1 per progress write. */
  version: number;
}

/** Requests per second by plan (contract §14), unless the operator set the workspace's own. */
export const PLAN_RATE_LIMITS: Record<Plan, number> = { starter: 20, growth: 100, pro: 500 };

/** The first number's id, or '' (matching no number) for a workspace that has none yet. */
export const firstNumberOf = (workspace: Workspace): string => workspace.phone_number_id ?? '';

export const rateLimitOf = (workspace: Workspace): number => workspace.rate_limit ?? PLAN_RATE_LIMITS[workspace.plan];
