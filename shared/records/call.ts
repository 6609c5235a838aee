/** A WhatsApp call through the platform's Calling API (contract §23): the service relays its signalling, never its audio. */
export const CALL_STATUSES = ['ringing', 'accepted', 'rejected', 'missed', 'ended', 'failed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** `inbound`: the customer called (user-initiated, free); `outbound`: the business called (business-initiated, priced per pulse). */
export type CallDirection = 'inbound' | 'outbound';

export interface Call {
  id: string;
  workspace_id: string;
  business_number_id: string;
  direction: CallDirection;
  /** The customer: digits of their number (empty when the platform named only a user id). */
  phone_number: string;
  user_id: string | null;
  /** The platform's call id (`wacid.…`). */
  platform_call_id: string;
  status: CallStatus;
  /** The customer's SDP offer (inbound) or ours (outbound), passed through untouched. */
  sdp_offer: string | null;
  /** Ours (inbound, on pre-accept or accept) or the customer's (outbound, when they answer). */
  sdp_answer: string | null;
  /** When the call connected, and when it ended, as the platform reported them. */
  started_at: string | null;
  ended_at: string | null;
  duration_s: number | null;
  /** By the rate card's `calls` rates per started 6-second pulse; 0 for a customer's call; null until it ends. */
  cost: { amount: string; currency: string; market: string } | null;
  error: { code: number; message: string } | null;
  created_at: string;
  updated_at: string;
}

/** Whether the call is over: nothing more can be done with it. */
export const callIsOver = (status: CallStatus): boolean => status === 'rejected' || status === 'missed' || status === 'ended' || status === 'failed';

/** A customer's permission for the business's calls (contract §23), as their last reply set it. */
export interface CallPermission {
  workspace_id: string;
  business_number_id: string;
  /** The customer key (digits, else user id). */
  customer: string;
  status: 'granted' | 'denied';
  permanent: boolean;
  /** A temporary permission's end (the platform's 7 days); null when permanent or denied. */
  expires_at: string | null;
  updated_at: string;
}
