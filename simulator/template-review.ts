import type { CreatedTemplate } from '#simulator/created-templates';
import type { SimulatorState } from '#simulator/state';
import { pushTemplateStatus } from '#simulator/template-status-push';

/** Starts the review of a template just submitted (created or edited). */
export function scheduleReview(state: SimulatorState, template: CreatedTemplate): void {
  const { delayMs, outcome } = state.templateReview;
  if (delayMs === null) return;
  const submitted = template.components;
  state.webhooks.later(delayMs, () => {
    // An edit since, or a decision on request, has taken over this review.
    if (template.components !== submitted || template.status !== 'PENDING' || !state.created.byId(template.id)) return;
    state.created.setStatus(template, outcome);
    void pushTemplateStatus(state, template.wabaId, template, outcome);
  });
}
