import { approvedTemplate } from '#shared/domain/templates/catalog';
import { requireOpenWindow } from '#shared/domain/messages/window';
import { prepareTemplate } from '#shared/domain/templates/parameters';
import type { TemplateInput } from '#shared/records/template-parameters';
import { sessionKinds } from '#shared/domain/messages/kinds/registry';
import { SESSION_KINDS, type SessionKindName } from '#shared/domain/messages/kinds/names';
import { referencedMessage } from '#shared/domain/messages/references';
import { requireSubscribed } from '#shared/domain/messages/opt-out';
import { insertMessage } from '#shared/data/message';
import type { Message } from '#shared/records/message';
import { nowIso } from '#shared/time';

export interface SendRequest extends TemplateInput, Partial<Record<SessionKindName, unknown>> {
  to: string;
  template?: string | { name: string; language?: string };
  language?: string;
  reply_to?: string;
}

const DEFAULT_LANGUAGE = 'en_US';

/** A template message: an approved template, rendered, and never marketing to a number that opted out. */
async function templateMessage(workspaceId: string, request: SendRequest) {
  const name = typeof request.template === 'string' ? request.template : request.template!.name;
  const language = (typeof request.template === 'object' && request.template.language) || request.language || DEFAULT_LANGUAGE;
  // The opt-out is read alongside the template (a read either way), and matters only for marketing.
  const subscribed = requireSubscribed(workspaceId, request.to);
  subscribed.catch(() => undefined); // awaited below for marketing; the template's own errors come first
  const template = await approvedTemplate(workspaceId, name, language);
  const { parameters, rendered, content } = prepareTemplate(template, request);
  if (template.category === 'MARKETING') await subscribed;
  return { message_type: 'template', template_name: name, language, content, template_parameters: parameters, rendered };
}

/** A session message of any other kind: only inside the customer window. */
async function sessionMessage(workspaceId: string, request: SendRequest) {
  const kind = SESSION_KINDS.find((name) => request[name] !== undefined)!;
  await requireOpenWindow(workspaceId, request.to);
  const accepted = await sessionKinds[kind].accept(workspaceId, request[kind] as never);
  return { message_type: kind, template_name: null, language: null, template_parameters: null, rendered: null, ...accepted };
}

/** POST /messages: validates against templates, the window and opt-outs, then stores the message `queued`. */
export async function acceptMessage(workspaceId: string, request: SendRequest, id: string): Promise<Message> {
  const now = nowIso();
  const [kind, context] = await Promise.all([
    request.template === undefined ? sessionMessage(workspaceId, request) : templateMessage(workspaceId, request),
    request.reply_to === undefined ? null : referencedMessage(workspaceId, request.reply_to, 'reply_to'),
  ]);
  return insertMessage({
    id,
    workspace_id: workspaceId,
    phone_number: request.to,
    direction: 'outbound',
    status: 'queued',
    ...kind,
    ...(context && { context }),
    campaign_id: null,
    provider_message_id: null,
    error: null,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: null },
    created_at: now,
    updated_at: now,
  });
}
