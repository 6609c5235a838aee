/** A workspace's onboarding through the platform's Embedded Signup (contract §19), recorded on the workspace. */
export const ONBOARDING_STEPS = ['exchange_code', 'claim_account', 'register_number', 'subscribe_app', 'connect_number', 'sync_templates'] as const;
export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingStep {
  name: OnboardingStepName;
  status: 'pending' | 'succeeded' | 'failed';
  /** When it last succeeded or failed. */
  at: string | null;
  /** Why it failed last: the service's error code and message (the platform's code and message for a platform refusal). */
  error: { code: string; message: string; platform_code: number | null } | null;
}

export interface Onboarding {
  phone_number_id: string;
  waba_id: string;
  status: 'in_progress' | 'failed' | 'completed';
  steps: OnboardingStep[];
  started_at: string;
  updated_at: string;
}
