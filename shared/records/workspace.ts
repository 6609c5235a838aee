/** A workspace: one business number and its settings. */
export const PLANS = ['starter', 'growth', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

export interface Workspace {
  id: string;
  name: string;
  plan: Plan;
  phone_number_id: string;
  waba_id: string;
  /** Inbound texts that opt a customer out of marketing (contract §13); DEFAULT_STOP_WORDS when unset. */
  stop_words?: string[];
  /** Requests per second the operator set for this workspace; the plan's (contract §14) when unset. */
  rate_limit?: number;
  created_at: string;
}
