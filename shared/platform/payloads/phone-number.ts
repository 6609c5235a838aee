/**
 * The platform's phone number object, `GET /{phone-number-id}` (WhatsApp Business Management API,
 * "Phone numbers"; docs/numbers.md): the fields asked for, and what the service keeps of them.
 */
export const PHONE_NUMBER_FIELDS = 'id,display_phone_number,verified_name,quality_rating,messaging_limit_tier,throughput';

export interface PlatformPhoneNumber {
  id: string;
  /** As the platform formats it, e.g. `+1 555-078-3881`. */
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
  throughput?: { level?: string };
}

/** Messages per second by the platform's throughput level: 80 standard, 1,000 once upgraded (contract §14). */
export const throughputOfLevel = (level: string | undefined): number => (level === 'HIGH' ? 1000 : 80);
