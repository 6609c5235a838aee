import type { SessionKind } from '#shared/domain/messages/kinds/kind';

interface Common {
  header?: string;
  body: string;
  footer?: string;
}
export type InteractiveInput =
  | (Common & { type: 'button'; buttons: { id: string; title: string }[] })
  | (Common & { type: 'list'; button: string; sections: { title?: string; rows: { id: string; title: string; description?: string }[] }[] });

/** The action part of the platform's interactive object: reply buttons, or a list behind a button. */
function action(input: InteractiveInput) {
  if (input.type === 'button') return { buttons: input.buttons.map((button) => ({ type: 'reply', reply: { id: button.id, title: button.title } })) };
  return { button: input.button, sections: input.sections };
}

/** Reply buttons (up to 3) and lists (up to 10 rows): the customer's choice comes back as an inbound `interactive` message. */
export const interactive: SessionKind<InteractiveInput> = {
  accept: (_ws, input) => ({ content: input.body, interactive: { ...input } }),
  platformObject: (message) => {
    const input = message.interactive as unknown as InteractiveInput;
    return {
      type: input.type,
      ...(input.header && { header: { type: 'text', text: input.header } }),
      body: { text: input.body },
      ...(input.footer && { footer: { text: input.footer } }),
      action: action(input),
    };
  },
};
