import { approvedTemplate } from '#shared/domain/templates/catalog';
import { requireOpenWindow } from '#shared/domain/messages/window';
import { prepareTemplate, type TemplateInput } from '#shared/domain/templates/parameters';
import { insertMessage } from '#shared/data/message';
import type { Message } from '#shared/domain/messages/message';
import { nowIso } from '#shared/time';

export interface SendRequest extends TemplateInput {
  to: string;
  template?: string | { name: string; language?: string };
  text?: string;
  language?: string;
}

const DEFAULT_LANGUAGE = 'en_US';

/** What is sent: a rendered, approved template, or session text inside the customer window. */
async function content(workspaceId: string, request: SendRequest) {
  if (request.template === undefined) {
    await requireOpenWindow(workspaceId, request.to);
    return { message_type: 'text', template_name: null, language: null, content: request.text!, template_parameters: null, rendered: null };
  }
  const name = typeof request.template === 'string' ? request.template : request.template.name;
  const language = (typeof request.template === 'object' && request.template.language) || request.language || DEFAULT_LANGUAGE;
  const template = await approvedTemplate(workspaceId, name, language);
  const { parameters, rendered, content } = prepareTemplate(template, request);
  return { message_type: 'template', template_name: name, language, content, template_parameters: parameters, rendered };
}

/** POST /messages: validates against templates and the window, then stores the message `queued`. */
export async function acceptMessage(workspaceId: string, request: SendRequest, id: string): Promise<Message> {
  const now = nowIso();
  return insertMessage({
    id,
    workspace_id: workspaceId,
    phone_number: request.to,
    direction: 'outbound',
    status: 'queued',
    ...(await content(workspaceId, request)),
    campaign_id: null,
    provider_message_id: null,
    error: null,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null },
    created_at: now,
    updated_at: now,
  });
}
