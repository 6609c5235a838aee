import type { Faults } from '#simulator/faults';
import type { SentMessages } from '#simulator/sent-messages';
import type { WebhookSender } from '#simulator/platform-webhooks';

/** Everything one running simulator keeps, shared by its routes. */
export interface SimulatorState {
  faults: Faults;
  sent: SentMessages;
  webhooks: WebhookSender;
}
