import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { paginate } from '#simulator/paging';
import { TEMPLATES, toGraphTemplate } from '#simulator/templates';
import { templateStatusFor } from '#simulator/routes/simulate-template-status';
import { templateCategoryFor } from '#simulator/routes/simulate-template-category';
import type { SimulatorState } from '#simulator/state';

/** A few templates per page, so that a client must follow `paging.next` to see them all. */
const TEMPLATE_PAGE_SIZES = { defaultLimit: 5, maxLimit: 5 };

/** `GET /{version}/{waba_id}/message_templates`: the WABA's templates (the catalogue, then those created through the API), cursor-paged. `fields` is accepted and ignored. */
export const listMessageTemplates =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    state.faults.failOnboardingStep('message_templates');
    const wabaId = ctx.params.wabaId;
    const catalogue = TEMPLATES.map((template) =>
      toGraphTemplate(wabaId, { ...template, status: templateStatusFor(state, wabaId, template), category: templateCategoryFor(state, wabaId, template) }),
    );
    // Templates created through the API follow the catalogue, in creation order.
    const created = state.created.of(wabaId).map(({ id, name, language, category, status, parameter_format, components }) => ({
      id,
      name,
      language,
      category,
      status,
      parameter_format,
      components,
    }));
    const templates = [...catalogue, ...created];
    return ok(paginate(templates, ctx.url, TEMPLATE_PAGE_SIZES));
  };
