import type { StatusPricing } from '#simulator/webhook-payloads';

/** Service messages each business number sends free per calendar month (UTC) since October 1, 2026 (docs/pricing.md). */
export const SERVICE_FREE_TIER = 1_000;
/** Recipients ending in these digits came from a click-to-WhatsApp ad: their messages fall in a free entry point window. */
const FREE_ENTRY_POINT_SUFFIX = '7777';

/**
 * How the platform prices a message today (docs/pricing.md, docs/platform-payloads.md): template
 * messages are `regular` in their category (a utility template inside the service window too, since
 * October 1, 2026); non-template (service) messages are `free_customer_service` within the number's
 * monthly free tier and `regular` beyond it; everything in a free entry point window is
 * `free_entry_point`. `billable` (deprecated, still sent) is whether it is charged.
 */
export class MessagePricing {
  /** Service messages priced so far, by `phone_number_id|YYYY-MM`. */
  private readonly serviceSent = new Map<string, number>();

  of(phoneNumberId: string, waId: string, category: string): StatusPricing {
    if (waId.endsWith(FREE_ENTRY_POINT_SUFFIX)) return priced('referral_conversion', 'free_entry_point');
    if (category !== 'service') return priced(category, 'regular');
    const month = `${phoneNumberId}|${new Date().toISOString().slice(0, 7)}`;
    const sent = (this.serviceSent.get(month) ?? 0) + 1;
    this.serviceSent.set(month, sent);
    return priced('service', sent <= SERVICE_FREE_TIER ? 'free_customer_service' : 'regular');
  }
}

const priced = (category: string, type: StatusPricing['type']): StatusPricing => ({ billable: type === 'regular', pricing_model: 'PMP', type, category });
