import { approvedTemplateFor } from '#shared/domain/templates/catalog';
import { prepareTemplate } from '#shared/domain/templates/parameters';
import type { Template } from '#shared/records/template';
import { sessionKinds } from '#shared/domain/messages/kinds/registry';
import type { SessionKindName } from '#shared/domain/messages/kinds/names';
import type { Message } from '#shared/records/message';
import type { OutgoingMessage } from '#shared/platform/payloads/message';
import { templateObject } from '#shared/platform/payloads/template';

/**
 * The template part of the platform request, built from the message's accepted parameters and the
 * template they were checked against: the one already read (the campaign's copy from its launch,
 * or the workspace's, read with the message), else the workspace's, read now. Built at send time
 * rather than stored, which keeps the message item small. A template that is gone or no longer
 * fits is a domain error, so the message fails with its code.
 */
async function templateRequest(message: Message, read: Template | undefined) {
  const template = read ?? (await approvedTemplateFor(message.workspace_id, message.business_number_id, message.template_name!, message.language!));
  // A message queued by the version before rich templates has its positional values only.
  const { header, variables, buttons } = message.template_parameters ?? {
    header: null,
    variables: (message as { variables?: string[] }).variables ?? [],
    buttons: [],
  };
  const { components } = prepareTemplate(template, { variables, header: header ?? undefined, buttons });
  return templateObject(template, components);
}

/** The platform's `type`, its object and the quoted message: the template's, or the session kind's (their wire format: shared/platform/payloads/). */
export async function platformRequest(
  message: Message,
  template: Template | undefined,
): Promise<Omit<OutgoingMessage, 'to' | 'recipient' | 'group' | 'callbackData'>> {
  const replyTo = message.context?.provider_message_id;
  if (message.message_type === 'template') return { type: 'template', object: await templateRequest(message, template), replyTo };
  return { type: message.message_type, object: sessionKinds[message.message_type as SessionKindName].platformObject(message), replyTo };
}
