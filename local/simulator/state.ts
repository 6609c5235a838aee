import type { Faults } from '#local/simulator/faults';
import type { SentMessages } from '#local/simulator/sent-messages';
import type { WebhookSender } from '#local/simulator/webhooks';

/** Everything one running simulator keeps, shared by its routes. */
export interface SimulatorState {
  faults: Faults;
  sent: SentMessages;
  webhooks: WebhookSender;
}
