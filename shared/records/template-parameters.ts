import type { HeaderParameter } from '#shared/platform/payloads/template';

/**
 * What a message or a campaign stores of a template's values: the input a client gave, the
 * parameters as accepted, and the template as the message shows it. The rules that produce them
 * are in shared/domain/templates/.
 */

export type Variables = (string | number)[] | Record<string, string | number>;

/** A header's value: our API takes it in the platform's shape. */
export type HeaderInput = HeaderParameter;

export interface ButtonInput {
  index: number;
  value?: string | number;
}

export interface TemplateInput {
  variables?: Variables;
  header?: HeaderInput;
  buttons?: ButtonInput[];
}

/** The parameters as accepted and stored on the message: values as strings, positional variables in order. */
export interface TemplateParameters {
  header: HeaderInput | null;
  variables: string[] | Record<string, string>;
  buttons: { index: number; value: string }[];
}

export type RenderedHeader =
  | { format: 'TEXT'; text: string }
  | { format: 'IMAGE' | 'VIDEO'; link: string | null; media_id: string | null }
  | { format: 'DOCUMENT'; link: string | null; media_id: string | null; filename: string | null }
  | { format: 'LOCATION'; latitude: number; longitude: number; name: string | null; address: string | null };

export interface RenderedTemplate {
  header: RenderedHeader | null;
  body: string;
  footer: string | null;
  /** Every button of the template; `value` is what this message carries for it (the full URL of a URL button). */
  buttons: { index: number; type: string; text: string; value: string | null }[];
}
