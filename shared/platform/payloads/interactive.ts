import { flowAction, type FlowContent } from '#shared/platform/payloads/flow';

interface Common {
  header?: string;
  body: string;
  footer?: string;
}

/** An interactive message as our API takes it and the message keeps it: reply buttons, a list behind a button, or a flow behind its call-to-action. */
export type InteractiveContent =
  | (Common & { type: 'button'; buttons: { id: string; title: string }[] })
  | (Common & { type: 'list'; button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] })
  | (Common & FlowContent)
  | CallPermissionRequest
  | ContactInfoRequest;

/** A request that the customer share their phone number (docs/platform-identity.md §4): a body and the fixed action. */
export interface ContactInfoRequest {
  type: 'request_contact_info';
  body: string;
}

/** The platform's request for permission to call the customer (docs/platform-calling.md §2.1): an optional body, no header or footer. */
export interface CallPermissionRequest {
  type: 'call_permission_request';
  body?: string;
}

/** The action part of the platform's interactive object. */
function action(content: Exclude<InteractiveContent, CallPermissionRequest | ContactInfoRequest>) {
  if (content.type === 'button') return { buttons: content.buttons.map((button) => ({ type: 'reply', reply: { id: button.id, title: button.title } })) };
  if (content.type === 'flow') return flowAction(content);
  return { button: content.button, sections: content.sections };
}

/** An interactive message's object: a text header, the body, the footer and the action. */
export const interactiveObject = (content: InteractiveContent) =>
  content.type === 'call_permission_request' || content.type === 'request_contact_info'
    ? { type: content.type, action: { name: content.type }, ...(content.body && { body: { text: content.body } }) }
    : {
        type: content.type,
        ...(content.header && { header: { type: 'text', text: content.header } }),
        body: { text: content.body },
        ...(content.footer && { footer: { text: content.footer } }),
        action: action(content),
      };
