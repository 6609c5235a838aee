import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { templateId, TEMPLATES, type TemplateCategory } from '#simulator/templates';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

const CATEGORIES: readonly TemplateCategory[] = ['UTILITY', 'MARKETING', 'AUTHENTICATION'];
const DAY_SECONDS = 86_400;

/** The catalogue's category of a template for one business account, after the changes simulated for it. */
export const templateCategoryFor = (state: SimulatorState, wabaId: string, template: { name: string; language: string; category: TemplateCategory }) =>
  state.templateCategories.get(`${wabaId}|${template.name}|${template.language}`) ?? template.category;

/**
 * `POST /_simulate/template-category` `{ waba_id, name, language, category, impending? }`: the
 * platform recategorises a template and pushes `template_category_update` (Meta,
 * "template_category_update webhook reference"), entry id = the business account id. A completed
 * change (the listing shows the new category from now on) carries `previous_category` and
 * `new_category`; with `impending: true` only the 24-hour warning is pushed: `new_category` the
 * current one, `correct_category` the coming one, and `category_update_timestamp`.
 */
export const simulateTemplateCategory =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    const { waba_id: wabaId, name, language, category, impending } = body ?? {};
    if (typeof wabaId !== 'string' || typeof name !== 'string' || typeof language !== 'string')
      throw whatsappErrors.invalidParameter('waba_id, name and language are required strings');
    if (!CATEGORIES.includes(category as TemplateCategory)) throw whatsappErrors.invalidParameter(`category must be one of ${CATEGORIES.join(', ')}`);
    const created = state.created.find(wabaId, name, language);
    const listed = TEMPLATES.find((t) => t.name === name && t.language === language);
    if (!created && !listed) throw whatsappErrors.templateNotFound(name, language);
    const current = created?.category ?? templateCategoryFor(state, wabaId, listed!);
    const now = Math.floor(Date.now() / 1000);
    const change =
      impending === true
        ? { new_category: current, correct_category: category, category_update_timestamp: now + DAY_SECONDS }
        : { previous_category: current, new_category: category };
    if (impending !== true) {
      if (created) created.category = category as TemplateCategory;
      else state.templateCategories.set(`${wabaId}|${name}|${language}`, category as TemplateCategory);
    }
    const id = created?.id ?? templateId(wabaId, { name, language });
    const result = await state.webhooks.post({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: wabaId,
          time: now,
          changes: [
            {
              field: 'template_category_update',
              value: { message_template_id: Number(id), message_template_name: name, message_template_language: language, ...change },
            },
          ],
        },
      ],
    });
    return ok({ ok: true, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
