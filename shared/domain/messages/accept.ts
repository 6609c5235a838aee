import { approvedTemplate } from '#shared/domain/templates/catalog';
import { requireOpenWindow } from '#shared/domain/messages/window';
import { prepareTemplate } from '#shared/domain/templates/parameters';
import type { TemplateInput } from '#shared/records/template-parameters';
import { sessionKinds } from '#shared/domain/messages/kinds/registry';
import { SESSION_KINDS, type SessionKindName } from '#shared/domain/messages/kinds/names';
import { referencedMessage } from '#shared/domain/messages/references';
import { requireSubscribed } from '#shared/domain/messages/opt-out';
import { cannotReach } from '#shared/domain/messages/reach';
import { insertMessage } from '#shared/data/message';
import { numbered, type NumberedMessage } from '#shared/domain/messages/message';
import { senderOf, type Sender } from '#shared/domain/numbers/sender';
import { storedNumber } from '#shared/domain/numbers/numbers';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';
import { errors, type DomainErrorCode } from '#shared/errors';
import { customerKey, resolveRecipient, type Recipient } from '#shared/domain/messages/recipient';
import { groupRecipient } from '#shared/domain/messages/group-recipient';

export interface SendRequest extends TemplateInput, Partial<Record<SessionKindName, unknown>> {
  /** Exactly one of `to` and `to_user_id` (the schema checks it). */
  to?: string;
  to_user_id?: string;
  to_group_id?: string;
  template?: string | { name: string; language?: string };
  language?: string;
  reply_to?: string;
  from?: string;
}

const DEFAULT_LANGUAGE = 'en_US';

/** A template message: an approved template, rendered, and never marketing to a closed market or a number that opted out. */
async function templateMessage(workspace: Workspace, sender: Sender, request: SendRequest, recipient: Recipient) {
  const workspaceId = workspace.id;
  const name = typeof request.template === 'string' ? request.template : request.template!.name;
  const language = (typeof request.template === 'object' && request.template.language) || request.language || DEFAULT_LANGUAGE;
  // The opt-out is read alongside the template (a read either way), and matters only for marketing; a group has none.
  const subscribed = recipient.group ? Promise.resolve() : requireSubscribed(workspaceId, recipient);
  subscribed.catch(() => undefined); // awaited below for marketing; the template's own errors come first
  const template = await approvedTemplate(workspace, sender.waba_id, name, language);
  const { parameters, rendered, content } = prepareTemplate(template, request);
  if (recipient.group && template.category === 'AUTHENTICATION')
    throw errors.refused('unsupported_for_groups', 'A WhatsApp group does not take authentication templates');
  // An authentication template to a user id (the platform's 131062), marketing to a closed market: 422, nothing sent.
  const unreachable = recipient.group ? null : cannotReach(template, recipient);
  if (unreachable) throw errors.refused(unreachable.code as DomainErrorCode, unreachable.title);
  if (template.category === 'MARKETING') await subscribed;
  return { message_type: 'template', template_name: name, language, content, template_parameters: parameters, rendered };
}

/** A session message of any other kind: only inside the customer window. */
async function sessionMessage(workspace: Workspace, sender: Sender, request: SendRequest, recipient: Recipient) {
  const kind = SESSION_KINDS.find((name) => request[name] !== undefined)!;
  await requireOpenWindow(workspace, sender.id, customerKey(recipient));
  const accepted = await sessionKinds[kind].accept(workspace.id, request[kind] as never);
  return { message_type: kind, template_name: null, language: null, template_parameters: null, rendered: null, ...accepted };
}

/** POST /messages: resolves the sending number and the recipient, validates against templates, the window, markets and opt-outs, then stores the message `queued`. */
export async function acceptMessage(workspace: Workspace, request: SendRequest, id: string): Promise<NumberedMessage> {
  const workspaceId = workspace.id;
  const now = nowIso();
  const [sender, recipient] =
    request.to_group_id === undefined
      ? await Promise.all([senderOf(workspace, request.from), resolveRecipient(workspaceId, request.to, request.to_user_id)])
      : await groupRecipient(workspace, request).then(({ sender, recipient }) => [sender, recipient] as const);
  const [kind, context] = await Promise.all([
    request.template === undefined ? sessionMessage(workspace, sender, request, recipient) : templateMessage(workspace, sender, request, recipient),
    request.reply_to === undefined ? null : referencedMessage(workspaceId, request.reply_to, 'reply_to'),
  ]);
  const message = await insertMessage({
    id,
    workspace_id: workspaceId,
    phone_number: recipient.phone,
    ...(recipient.userId && { user_id: recipient.userId }),
    ...(recipient.group && { chat_group_id: recipient.group.id, platform_group_id: recipient.group.platformId }),
    ...storedNumber(workspace, sender.id),
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
  return numbered(message, firstNumberOf(workspace));
}
