import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { templateId, TEMPLATES, type TemplateStatus } from '#simulator/templates';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';
import { pushTemplateStatus } from '#simulator/template-status-push';

const EVENTS: readonly TemplateStatus[] = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'];

/** The catalogue's status of a template for one business account, after the changes simulated for it. */
export const templateStatusFor = (
  state: SimulatorState,
  wabaId: string,
  template: { name: string; language: string; status: TemplateStatus },
): TemplateStatus => state.templateStatuses.get(`${wabaId}|${template.name}|${template.language}`) ?? template.status;

/**
 * `POST /_simulate/template-status` `{ waba_id, name, language, event, reason? }`: the platform
 * changes a template's status for that business account (its listing shows it from now on) and
 * pushes the `message_template_status_update` webhook, entry id = the business account id. Works
 * for the catalogue's templates and for those created through the API.
 */
export const simulateTemplateStatus =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    const { waba_id: wabaId, name, language, event, reason } = body ?? {};
    if (typeof wabaId !== 'string' || typeof name !== 'string' || typeof language !== 'string')
      throw whatsappErrors.invalidParameter('waba_id, name and language are required strings');
    if (typeof event !== 'string' || !EVENTS.includes(event as TemplateStatus))
      throw whatsappErrors.invalidParameter(`event must be one of ${EVENTS.join(', ')}`);
    const created = state.created.find(wabaId, name, language);
    if (created) state.created.setStatus(created, event as TemplateStatus);
    else if (TEMPLATES.some((t) => t.name === name && t.language === language))
      state.templateStatuses.set(`${wabaId}|${name}|${language}`, event as TemplateStatus);
    else throw whatsappErrors.templateNotFound(name, language);
    const id = created?.id ?? templateId(wabaId, { name, language });
    const result = await pushTemplateStatus(state, wabaId, { id, name, language }, event, typeof reason === 'string' ? reason : undefined);
    return ok({ ok: true, delivered_status: result.status, ...(result.error && { error: result.error }) });
  };
