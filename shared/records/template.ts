/** A template as the service keeps it (synced from the platform, contract §12). */
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;

export type ParameterFormat = 'POSITIONAL' | 'NAMED';
export type HeaderFormat = 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT' | 'LOCATION';

export interface TemplateHeader {
  format: HeaderFormat;
  /** A text header's text (at most one placeholder); null for media and location headers. */
  text: string | null;
  placeholders: string[];
}

export interface TemplateButton {
  /** Position in the template's button list: the platform's `index`. */
  index: number;
  /** QUICK_REPLY, URL, PHONE_NUMBER, COPY_CODE, OTP, FLOW, CATALOG, … as the platform names it. */
  type: string;
  text: string;
  url: string | null;
  phone_number: string | null;
  /** A URL button's suffix placeholder, if it has one. */
  placeholders: string[];
}

export interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** The body text. */
  content: string;
  parameter_format: ParameterFormat;
  /** The body's placeholders in order of first appearance: `["1","2"]` or `["customer","order_id"]`. */
  placeholders: string[];
  header: TemplateHeader | null;
  footer: string | null;
  buttons: TemplateButton[];
  /** The business account it belongs to, when not the workspace's first (contract §17; data/template.ts). */
  waba_id?: string;
}

/** The distinct `{{…}}` placeholders of a text, in order of first appearance. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((match) => match[1]))];
