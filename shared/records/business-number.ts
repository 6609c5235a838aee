/** A WhatsApp business number connected to a workspace (contract §17). */
export const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
export type QualityRating = (typeof QUALITY_RATINGS)[number];

/** The platform's range of per-number throughput (messages per second); the operator may set a number's. */
export const MAX_THROUGHPUT = 1000;

export interface BusinessNumber {
  /** The platform's phone number id. */
  id: string;
  workspace_id: string;
  waba_id: string;
  /** Digits only. */
  display_phone_number: string;
  verified_name: string | null;
  quality_rating: QualityRating;
  /** The platform's tier (`TIER_2K`, …), or null when it has not said. */
  messaging_limit: string | null;
  /** Messages per second the platform allows it. */
  throughput_mps: number;
  /** `paused` is not stored: it is a number pause (§16) over a connected number. */
  status: 'connected' | 'disconnected';
  connected_at: string;
  disconnected_at?: string;
  /**
   * A number the business shares with the WhatsApp Business app (coexistence, contract §23):
   * `shared` while both work; `app_only` once the business went back to the app alone (the
   * platform's `PARTNER_REMOVED` or `ACCOUNT_OFFBOARDED`), when the platform refuses the API's sends.
   */
  coexistence?: { status: 'shared' | 'app_only'; since: string; reason: string | null };
  updated_at: string;
}
