import { EDIT_LIMITS } from '#simulator/created-templates';
import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';
import { checkComponents, checkIdentity } from '#simulator/template-definition-check';
import { templateErrors } from '#simulator/template-errors';
import { scheduleReview } from '#simulator/template-review';
import { TEMPLATES, type TemplateCategory } from '#simulator/templates';
import { whatsappErrors } from '#simulator/whatsapp-errors';

type Json = Record<string, unknown>;
const objectBody = async (ctx: RouteContext): Promise<Json> => {
  const body = await ctx.readJson();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw whatsappErrors.invalidParameter('The request body must be a JSON object.');
  return body as Json;
};

/**
 * `POST /{version}/{waba_id}/message_templates`: checks the definition as the platform does,
 * refuses a name already used in that language (2388024) or being deleted (2388023), keeps the
 * template PENDING and answers `{ id, status, category }`; the review follows (template-review.ts).
 */
export const createTemplate =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const wabaId = ctx.params.wabaId;
    const body = await objectBody(ctx);
    const identity = checkIdentity(body);
    const { name, language } = identity;
    if (TEMPLATES.some((t) => t.name === name && t.language === language) || state.created.find(wabaId, name, language)) throw templateErrors.exists(language);
    if (state.created.isBeingDeleted(wabaId, name, language)) throw templateErrors.beingDeleted(language);
    const components = checkComponents(body.components, state.uploads);
    const created = state.created.add(wabaId, { ...identity, components });
    scheduleReview(state, created);
    return ok({ id: created.id, status: created.status, category: created.category });
  };

/**
 * `POST /{version}/{template_id}`: new components (and category). Templates in review cannot be
 * edited; an approved one at most once in 24 hours and 10 times in 30 days, and not its category.
 * The edit is reviewed again.
 */
export const editTemplate =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const template = state.created.byId(ctx.params.templateId);
    if (!template) throw graphErrors.unsupportedRequest('POST', ctx.params.templateId);
    const body = await objectBody(ctx);
    if (template.status === 'PENDING') throw templateErrors.notEditable(template.status);
    const category = body.category as TemplateCategory | undefined;
    if (template.status === 'APPROVED') {
      if (category && category !== template.category) throw templateErrors.categoryLocked();
      const now = Date.now();
      const recent = template.approvedEdits.filter((at) => now - at < EDIT_LIMITS.windowMs);
      if (recent.some((at) => now - at < EDIT_LIMITS.minIntervalMs)) throw templateErrors.editTooSoon();
      if (recent.length >= EDIT_LIMITS.perWindow) throw templateErrors.tooManyEdits();
    }
    state.created.edit(template, checkComponents(body.components, state.uploads), category, Date.now());
    scheduleReview(state, template);
    return ok({ success: true });
  };

/** `DELETE /{version}/{waba_id}/message_templates?name=…[&hsm_id=…]`: one language by id, or every language of the name. */
export const deleteTemplate =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const name = ctx.url.searchParams.get('name');
    if (!name) throw whatsappErrors.invalidParameter('The parameter name is required.');
    const hsmId = ctx.url.searchParams.get('hsm_id') ?? undefined;
    if (state.created.remove(ctx.params.wabaId, name, hsmId) === 0)
      throw whatsappErrors.invalidParameter(`No message template named ${name}${hsmId ? ` with id ${hsmId}` : ''} in this business account.`);
    return ok({ success: true });
  };
