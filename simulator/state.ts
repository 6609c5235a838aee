import type { Faults } from '#simulator/faults';
import type { SentMessages } from '#simulator/sent-messages';
import type { WebhookSender } from '#simulator/platform-webhooks';
import type { MediaStore } from '#simulator/media';
import type { TemplateStatus } from '#simulator/templates';

/** Everything one running simulator keeps, shared by its routes. */
export interface SimulatorState {
  faults: Faults;
  sent: SentMessages;
  webhooks: WebhookSender;
  media: MediaStore;
  /** Template statuses changed through /_simulate/template-status, by `waba|name|language`. */
  templateStatuses: Map<string, TemplateStatus>;
}
