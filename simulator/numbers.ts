/**
 * The business phone numbers the simulator knows, as the platform describes them
 * (`GET /{phone-number-id}`, WhatsApp Business Management API "Phone numbers"; docs/numbers.md).
 */
export interface SimulatedNumber {
  wabaId: string;
  /** As the platform formats it: `+1 555-010-4455`. */
  display_phone_number: string;
  verified_name: string;
  quality_rating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  /**
   * The messaging limit: since October 2025 its business portfolio's, shared by all the
   * portfolio's numbers; answered as `whatsapp_business_manager_messaging_limit` and, for
   * clients of v23.0 and older, `messaging_limit_tier` (Meta, "Messaging limits").
   */
  messaging_limit_tier: string;
  throughput_level: 'STANDARD' | 'HIGH';
  /** On the WhatsApp Business app and the Cloud API at once ("coexistence"; docs/platform-coexistence.md §1: `GET /{id}?fields=is_on_biz_app,platform_type`). */
  is_on_biz_app?: boolean;
}

/** A formatted US test number from the id's last digits, so two registered numbers differ. */
const displayFor = (phoneNumberId: string) => {
  const d = phoneNumberId.padStart(7, '0').slice(-7);
  return `+1 555-${d.slice(0, 3)}-${d.slice(3)}`;
};

export const simulatedNumber = (phoneNumberId: string, wabaId: string, details: Partial<Omit<SimulatedNumber, 'wabaId'>> = {}): SimulatedNumber => ({
  wabaId,
  display_phone_number: details.display_phone_number ?? displayFor(phoneNumberId),
  verified_name: details.verified_name ?? 'Simulated Business',
  quality_rating: details.quality_rating ?? 'GREEN',
  messaging_limit_tier: details.messaging_limit_tier ?? 'TIER_2K',
  throughput_level: details.throughput_level ?? 'STANDARD',
  ...(details.is_on_biz_app && { is_on_biz_app: true }),
});

/** The phone number object, with the fields asked for (`id` always), as `GET /{phone-number-id}?fields=` answers. */
export function phoneNumberObject(phoneNumberId: string, number: SimulatedNumber, fields: string | null): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: phoneNumberId,
    display_phone_number: number.display_phone_number,
    verified_name: number.verified_name,
    quality_rating: number.quality_rating,
    messaging_limit_tier: number.messaging_limit_tier,
    whatsapp_business_manager_messaging_limit: number.messaging_limit_tier,
    throughput: { level: number.throughput_level },
    code_verification_status: 'VERIFIED',
    platform_type: 'CLOUD_API',
    is_on_biz_app: number.is_on_biz_app === true,
  };
  // Without `fields` the platform answers its default set.
  const wanted = fields
    ? fields.split(',').map((f) => f.trim())
    : ['verified_name', 'code_verification_status', 'display_phone_number', 'quality_rating', 'id'];
  return Object.fromEntries(Object.entries(all).filter(([field]) => field === 'id' || wanted.includes(field)));
}
