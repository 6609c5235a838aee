import type { DeliveryResult } from '#simulator/platform-webhooks';
import type { SimulatorState } from '#simulator/state';

/**
 * Pushes `message_template_status_update` for a template of a business account, as the platform
 * does when a review ends or a template's status changes (entry id = the business account id).
 */
export function pushTemplateStatus(
  state: SimulatorState,
  wabaId: string,
  template: { id: string; name: string; language: string },
  event: string,
  reason?: string,
): Promise<DeliveryResult> {
  return state.webhooks.post({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event,
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason: reason ?? (event === 'REJECTED' ? 'INCORRECT_CATEGORY' : 'NONE'),
            },
          },
        ],
      },
    ],
  });
}
