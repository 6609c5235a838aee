/** The statuses of messages sent (`statuses`): each message's platform id, its new state, and what the platform said of it. */
import type { ReportedPricing } from '#shared/records/pricing';
import { list, num, object, phoneOf, str, time, type Json } from '#shared/platform/webhook-values';

export const PLATFORM_STATUSES = ['sent', 'delivered', 'read', 'failed', 'played'] as const;
export type PlatformStatusName = (typeof PLATFORM_STATUSES)[number];

export interface PlatformError {
  code: number | string;
  title: string;
  subcode?: number;
  details?: string;
}

export interface PlatformStatus {
  phoneNumberId: string;
  providerMessageId: string;
  /** The customer's number (`recipient_id`, a WhatsApp id) as the service files numbers. */
  recipientPhone?: string;
  /** The customer's business-scoped user id (`recipient_user_id`); a status to a user id may have no `recipient_id`. */
  recipientUserId?: string;
  status: PlatformStatusName;
  at: string;
  callbackData?: string;
  error?: PlatformError;
  /** How the platform priced the message: on `sent` and one of `delivered`/`read` (docs/platform-requests.md §9.3). */
  pricing?: ReportedPricing;
}

function errorOf(errors: unknown): PlatformError | undefined {
  const [error] = list(errors);
  if (!error) return undefined;
  const subcode = num(error.error_subcode);
  const details = str(object(error.error_data)?.details);
  return {
    code: (error.code as number | string) ?? 'unknown',
    title: str(error.title) ?? str(error.message) ?? 'Unknown error',
    ...(subcode !== null && { subcode }),
    ...(details && { details }),
  };
}

/** `pricing` as given, each field null when absent or not of its type: what it means is decided on pricing (docs/pricing.md). */
function pricingOf(value: unknown): ReportedPricing | undefined {
  const pricing = object(value);
  if (!pricing) return undefined;
  return {
    pricing_model: str(pricing.pricing_model) ?? null,
    category: str(pricing.category) ?? null,
    type: str(pricing.type) ?? null,
    billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
  };
}

export function readStatuses(phoneNumberId: string, value: Json, into: { statuses: PlatformStatus[] }): void {
  for (const status of list(value.statuses)) {
    const id = str(status.id);
    const name = str(status.status) as PlatformStatusName | undefined;
    if (!id || !name || !PLATFORM_STATUSES.includes(name)) continue;
    const error = errorOf(status.errors);
    const pricing = pricingOf(status.pricing);
    // A group message's report names the group in `recipient_id` and the participant it reached in `recipient_participant_id` (docs/platform-groups.md §2.1).
    const group = status.recipient_type === 'group';
    const recipientPhone = group ? phoneOf(status.recipient_participant_id) : phoneOf(status.recipient_id);
    into.statuses.push({
      phoneNumberId,
      providerMessageId: id,
      status: name,
      at: time(status.timestamp),
      callbackData: str(status.biz_opaque_callback_data),
      ...(recipientPhone && { recipientPhone }),
      ...(str(group ? status.recipient_participant_user_id : status.recipient_user_id) && {
        recipientUserId: str(group ? status.recipient_participant_user_id : status.recipient_user_id),
      }),
      ...(error && { error }),
      ...(pricing && { pricing }),
    });
  }
}
