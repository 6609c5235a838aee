/**
 * The platform's phone number object, `GET /{phone-number-id}` (WhatsApp Business Management API,
 * "Phone numbers"; docs/numbers.md): the fields asked for, and what the service keeps of them.
 */
const FIELDS = 'id,display_phone_number,verified_name,quality_rating,throughput';

/**
 * The fields asked for: the portfolio's messaging limit is `whatsapp_business_manager_messaging_limit`
 * from v24.0 on, `messaging_limit_tier` before (Meta, "Messaging limits", "Via API").
 */
export const phoneNumberFields = (graphApiVersion: string): string =>
  `${FIELDS},${Number(/^v(\d+)/.exec(graphApiVersion)?.[1] ?? 0) >= 24 ? 'whatsapp_business_manager_messaging_limit' : 'messaging_limit_tier'}`;

export interface PlatformPhoneNumber {
  id: string;
  /** As the platform formats it, e.g. `+1 555-078-3881`. */
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  /** Deprecated: up to v23.0. */
  messaging_limit_tier?: string;
  /** The business portfolio's limit, shared by all its numbers (v24.0 on), e.g. `TIER_2K`. */
  whatsapp_business_manager_messaging_limit?: string;
  throughput?: { level?: string };
}

/** Messages per second by the platform's throughput level: 80 standard, 1,000 once upgraded (contract §14). */
export const throughputOfLevel = (level: string | undefined): number => (level === 'HIGH' ? 1000 : 80);
