/** A workspace's onboarding through the platform's Embedded Signup (contract §19), recorded on the workspace. */
export const ONBOARDING_STEPS = [
  'exchange_code',
  'claim_account',
  'register_number',
  'subscribe_app',
  'connect_number',
  'sync_templates',
  'sync_app_data',
] as const;

/**
 * `cloud_api`: a number for the Cloud API alone. `coexistence`: a number the business keeps using in
 * the WhatsApp Business app (contract §23): it is registered already (that step does nothing), and
 * the app's contacts and chat history are asked for once connected (`sync_app_data`).
 */
export const ONBOARDING_MODES = ['cloud_api', 'coexistence'] as const;
export type OnboardingMode = (typeof ONBOARDING_MODES)[number];
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
  /** Absent on an onboarding from before coexistence: `cloud_api`. */
  mode?: OnboardingMode;
  status: 'in_progress' | 'failed' | 'completed';
  steps: OnboardingStep[];
  started_at: string;
  updated_at: string;
}
