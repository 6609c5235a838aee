/**
 * A template as a client defines it to create or edit one (contract §18): the platform's own
 * shape (`components` with `HEADER`, `BODY`, `FOOTER`, `BUTTONS` and their `example` blocks), so
 * a definition written for the platform works here unchanged. A media header's example is given
 * as `header_url` or `header_base64` + `mime_type`; the service uploads it for a handle.
 */
export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'] as const;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP'] as const;

export interface ComponentDefinition {
  type: (typeof COMPONENT_TYPES)[number];
  format?: (typeof HEADER_FORMATS)[number];
  text?: string;
  example?: Record<string, unknown>;
  buttons?: ButtonDefinition[];
}

export interface ButtonDefinition {
  type: (typeof BUTTON_TYPES)[number];
  text?: string;
  url?: string;
  phone_number?: string;
  /** A URL button's full example URL(s); a COPY_CODE button's example code. */
  example?: string | string[];
  otp_type?: string;
}

export interface TemplateDefinition {
  name: string;
  language: string;
  category: string;
  parameter_format: 'POSITIONAL' | 'NAMED';
  components: ComponentDefinition[];
}

/** The media a header example stands for: downloaded from the URL, or given as bytes. */
export type HeaderExampleSource = { url: string } | { base64: string; mimeType: string };
