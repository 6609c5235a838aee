/**
 * The parts of a WhatsApp Cloud API webhook the service acts on, read defensively: it is outside
 * input. Shapes follow the platform's webhook reference (docs/platform-payloads.md); anything this
 * does not know becomes an `unsupported` message, never an error. Messages are read in
 * webhook-messages.ts, statuses in webhook-statuses.ts; the business account's updates here.
 */
import { readCategoryUpdate, type TemplateCategoryUpdate } from '#shared/platform/template-category-update';
import { GROUP_FIELDS, readGroupUpdates, type GroupUpdate } from '#shared/platform/group-webhooks';
import { readCallUpdates, type CallPermissionReply, type CallUpdate } from '#shared/platform/call-webhooks';
import { COEXISTENCE_FIELDS, readCoexistence, readOffboarding, type CoexistenceWebhook } from '#shared/platform/coexistence-webhooks';
import { readMessages, type IdentityChange, type MessageChange, type PlatformInbound } from '#shared/platform/webhook-messages';
import { readStatuses, type PlatformStatus } from '#shared/platform/webhook-statuses';
import { list, num, object, str, type Json } from '#shared/platform/webhook-values';

/** `message_template_status_update`: a template's new status, for the business account in `entry[].id`. */
export interface TemplateStatusUpdate {
  wabaId: string;
  templateId: string | null;
  name: string;
  language: string;
  status: string;
  reason: string | null;
}

/**
 * `phone_number_quality_update`: the platform re-rated a number of the business account in
 * `entry[].id`, named by its display number (Meta, "phone_number_quality_update webhook reference").
 * `limit` is `max_daily_conversations_per_business`, else the older `current_limit`.
 */
export interface NumberQualityUpdate {
  wabaId: string;
  displayPhoneNumber: string;
  event: string;
  limit: string | null;
}

/**
 * `business_capability_update`: the business portfolio of the account in `entry[].id` has a new
 * messaging limit, `max_daily_conversations_per_business` (-1 unlimited; Meta,
 * "business_capability_update webhook reference").
 */
export interface PortfolioLimitUpdate {
  wabaId: string;
  limit: number;
}

export interface PlatformWebhook extends CoexistenceWebhook {
  statuses: PlatformStatus[];
  messages: PlatformInbound[];
  identityChanges: IdentityChange[];
  messageChanges: MessageChange[];
  templateUpdates: TemplateStatusUpdate[];
  categoryUpdates: TemplateCategoryUpdate[];
  qualityUpdates: NumberQualityUpdate[];
  limitUpdates: PortfolioLimitUpdate[];
  groupUpdates: GroupUpdate[];
  callUpdates: CallUpdate[];
  permissionReplies: CallPermissionReply[];
}

function readTemplateUpdate(wabaId: string | undefined, value: Json, into: PlatformWebhook): void {
  const name = str(value.message_template_name);
  const language = str(value.message_template_language);
  const status = str(value.event);
  if (!wabaId || !name || !language || !status) return;
  const id = value.message_template_id;
  // Languages are written `en_US` in template lists but `en-US` in some of these events.
  into.templateUpdates.push({
    wabaId,
    templateId: typeof id === 'number' || typeof id === 'string' ? String(id) : null,
    name,
    language: language.replace('-', '_'),
    status: status.toUpperCase(),
    reason: str(value.reason) ?? null,
  });
}

export function readWebhook(payload: unknown): PlatformWebhook {
  const read: PlatformWebhook = {
    statuses: [],
    messages: [],
    identityChanges: [],
    messageChanges: [],
    templateUpdates: [],
    categoryUpdates: [],
    qualityUpdates: [],
    limitUpdates: [],
    groupUpdates: [],
    callUpdates: [],
    permissionReplies: [],
    echoes: [],
    history: [],
    appContacts: [],
    offboardings: [],
  };
  for (const entry of list(object(payload)?.entry)) {
    const entryId = str(entry.id) ?? (typeof entry.id === 'number' ? String(entry.id) : undefined);
    for (const change of list(entry.changes)) {
      const value = object(change.value) ?? {};
      if (change.field === 'message_template_status_update') {
        readTemplateUpdate(entryId, value, read);
        continue;
      }
      if (change.field === 'template_category_update') {
        const update = readCategoryUpdate(entryId, value);
        if (update) read.categoryUpdates.push(update);
        continue;
      }
      if (change.field === 'phone_number_quality_update') {
        const display = str(value.display_phone_number)?.replace(/\D/g, '');
        if (entryId && display) {
          const limit = str(value.max_daily_conversations_per_business) ?? str(value.current_limit) ?? null;
          read.qualityUpdates.push({ wabaId: entryId, displayPhoneNumber: display, event: str(value.event) ?? '', limit });
        }
        continue;
      }
      if (change.field === 'business_capability_update') {
        const limit = num(value.max_daily_conversations_per_business);
        if (entryId && limit !== null && Number.isInteger(limit)) read.limitUpdates.push({ wabaId: entryId, limit });
        continue;
      }
      if ((COEXISTENCE_FIELDS as readonly unknown[]).includes(change.field)) {
        readCoexistence(String(change.field), value, read);
        continue;
      }
      if (change.field === 'account_update') {
        const offboarding = readOffboarding(entryId, value, entry.time);
        if (offboarding) read.offboardings.push(offboarding);
        continue;
      }
      if (change.field === 'calls') {
        read.callUpdates.push(...readCallUpdates(value));
        continue;
      }
      if ((GROUP_FIELDS as readonly unknown[]).includes(change.field)) {
        read.groupUpdates.push(...readGroupUpdates(String(change.field), value));
        continue;
      }
      const phoneNumberId = str(object(value.metadata)?.phone_number_id);
      if (!phoneNumberId) continue;
      readStatuses(phoneNumberId, value, read);
      readMessages(phoneNumberId, value, read);
    }
  }
  return read;
}
