import type { Faults } from '#simulator/faults';
import type { SentMessages } from '#simulator/sent-messages';
import type { ReadReceipts } from '#simulator/read-receipts';
import type { WebhookSender } from '#simulator/platform-webhooks';
import type { MediaStore } from '#simulator/media';
import type { TemplateCategory, TemplateStatus } from '#simulator/templates';
import type { SimulatedNumber } from '#simulator/numbers';
import type { CreatedTemplates } from '#simulator/created-templates';
import type { UploadSessions } from '#simulator/uploads';
import type { TemplateReviewSettings } from '#simulator/template-review-settings';
import type { MessagePricing } from '#simulator/pricing';
import type { EmbeddedSignups } from '#simulator/embedded-signup';
import type { Groups } from '#simulator/groups';
import type { Calls } from '#simulator/calls';
import type { CallPermissions } from '#simulator/call-permissions';
import type { CallSettings } from '#simulator/call-settings';
import type { Coexistence } from '#simulator/coexistence';

/** Everything one running simulator keeps, shared by its routes. */
export interface SimulatorState {
  faults: Faults;
  sent: SentMessages;
  /** Customers' messages delivered, and the read receipts sent for them. */
  reads: ReadReceipts;
  /** Template categories changed through /_simulate/template-category, by `waba|name|language`. */
  templateCategories: Map<string, TemplateCategory>;
  webhooks: WebhookSender;
  media: MediaStore;
  /** Template statuses changed through /_simulate/template-status, by `waba|name|language`. */
  templateStatuses: Map<string, TemplateStatus>;
  /** Registered phone numbers by id: their business account (the webhooks' `entry[].id`) and what `GET /{id}` answers. */
  numbers: Map<string, SimulatedNumber>;
  /** Business accounts whose webhooks the app subscribed to (`POST /{waba-id}/subscribed_apps`). */
  subscribedAccounts: Set<string>;
  /** Accepted `POST /{waba-id}/subscribed_apps` requests per business account. */
  subscriptionRequests: Map<string, number>;
  /** Templates created through the Graph API, per business account. */
  created: CreatedTemplates;
  /** Resumable upload sessions and the handles they issued. */
  uploads: UploadSessions;
  /** How created and edited templates are reviewed. */
  templateReview: TemplateReviewSettings;
  /** How each accepted message is priced in its status reports (free tiers are counted per number). */
  pricing: MessagePricing;
  /** The access tokens Graph routes accept: the app's own, and business tokens from code exchanges. */
  accessTokens: Set<string>;
  /** The app secret: it signs webhooks and authenticates code exchanges. */
  appSecret: string;
  /** Embedded Signup's codes, business tokens, PINs and registrations. */
  signups: EmbeddedSignups;
  /** Groups created through the Groups API, their participants and join requests, and held creations. */
  groups: Groups;
  /** Calls of the Calling API, with their state (docs/platform-calling.md). */
  calls: Calls;
  /** Each (number, customer) pair's call permission and the usage the platform limits. */
  callPermissions: CallPermissions;
  /** Each number's calling settings (`/{phone_number_id}/settings`). */
  callSettings: CallSettings;
  /** Numbers on the WhatsApp Business app too: syncs, offboarding, throughput (docs/platform-coexistence.md). */
  coexistence: Coexistence;
}

/** A phone number id with its business account: the registered one, else the number's id stands in. */
export const businessNumber = (state: SimulatorState, phoneNumberId: string) => ({
  phoneNumberId,
  wabaId: state.numbers.get(phoneNumberId)?.wabaId ?? phoneNumberId,
});
