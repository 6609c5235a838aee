/**
 * Creating, editing and deleting a business account's templates on the platform (WhatsApp
 * Business Management API; sources in docs/templates.md §5). Refusals come back as
 * PlatformError with the platform's code, subcode and `error_user_msg`.
 */
import { graphRequest, graphUrl, PlatformUnreachable } from '#shared/platform/graph-client';
import { createTemplateBody, editTemplateBody } from '#shared/platform/payloads/template-definition';
import type { ComponentDefinition, TemplateDefinition } from '#shared/records/template-definition';

/** What the platform answers a creation: the template's id, its status (usually PENDING) and the category it settled on. */
export interface CreatedTemplate {
  id: string;
  status: string;
  category: string;
}

export async function createPlatformTemplate(
  wabaId: string,
  token: string,
  definition: TemplateDefinition,
  headerHandle: string | undefined,
): Promise<CreatedTemplate> {
  const answer = await graphRequest<{ id?: unknown; status?: unknown; category?: unknown }>(
    graphUrl(`${encodeURIComponent(wabaId)}/message_templates`),
    token,
    createTemplateBody(definition, headerHandle),
  );
  if (typeof answer.id !== 'string' && typeof answer.id !== 'number') throw new PlatformUnreachable(new Error('The platform created no template id'));
  return {
    id: String(answer.id),
    status: typeof answer.status === 'string' ? answer.status : 'PENDING',
    category: typeof answer.category === 'string' ? answer.category : definition.category,
  };
}

/** `POST /{template_id}`: new components (and category); the platform answers `{ success: true }`. */
export async function editPlatformTemplate(
  templateId: string,
  token: string,
  edit: { components: ComponentDefinition[]; headerHandle: string | undefined; category: string | undefined },
): Promise<void> {
  await graphRequest(graphUrl(encodeURIComponent(templateId)), token, editTemplateBody(edit.components, edit.headerHandle, edit.category));
}

/**
 * `DELETE /{waba_id}/message_templates?name=…&hsm_id=…`: with `hsm_id`, that template (one
 * language); without, every language of the name.
 */
export async function deletePlatformTemplate(wabaId: string, token: string, target: { name: string; templateId?: string }): Promise<void> {
  const query = new URLSearchParams({ name: target.name, ...(target.templateId && { hsm_id: target.templateId }) });
  await graphRequest(graphUrl(`${encodeURIComponent(wabaId)}/message_templates?${query}`), token, undefined, 'DELETE');
}
