import { createHash } from 'node:crypto';

export type TemplateCategory = 'UTILITY' | 'MARKETING' | 'AUTHENTICATION';
export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';

/**
 * Components as the Graph API lists them under `/{waba_id}/message_templates` (WhatsApp Cloud API,
 * "Template components": `HEADER` with `format`, `BODY`, `FOOTER`, `BUTTONS`, each with its
 * `example` block; see docs/templates.md for the sources).
 */
export type GraphComponent =
  | {
      type: 'HEADER';
      format: 'TEXT';
      text: string;
      example?: { header_text: string[] } | { header_text_named_params: { param_name: string; example: string }[] };
    }
  | { type: 'HEADER'; format: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; example: { header_handle: string[] } }
  | { type: 'HEADER'; format: 'LOCATION' }
  | { type: 'BODY'; text: string; example?: { body_text: string[][] } | { body_text_named_params: { param_name: string; example: string }[] } }
  | { type: 'FOOTER'; text: string }
  | { type: 'BUTTONS'; buttons: GraphButton[] };

export type GraphButton =
  | { type: 'QUICK_REPLY'; text: string }
  | { type: 'URL'; text: string; url: string; example?: string[] }
  | { type: 'PHONE_NUMBER'; text: string; phone_number: string }
  | { type: 'COPY_CODE'; text: string; example: string };

/**
 * An authentication template's copy-code button, as the platform lists it once created: created as
 * `OTP`, it is listed as a URL button whose url carries the code (Meta, "Copy code authentication
 * templates").
 */
const copyCodeButton = (text: string): GraphButton => ({
  type: 'URL',
  text,
  url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
  example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'],
});

export interface SimulatedTemplate {
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  parameter_format: 'POSITIONAL' | 'NAMED';
  components: GraphComponent[];
}

const body = (text: string, ...examples: string[]): GraphComponent => ({ type: 'BODY', text, ...(examples.length && { example: { body_text: [examples] } }) });
const simple = (
  name: string,
  language: string,
  category: TemplateCategory,
  status: TemplateStatus,
  text: string,
  ...examples: string[]
): SimulatedTemplate => ({
  name,
  language,
  category,
  status,
  parameter_format: 'POSITIONAL',
  components: [body(text, ...examples)],
});
const HANDLE = '4::aW1hZ2UvanBlZw==:ARZexampleHandle';

/** The simulator's template list, identical for every WhatsApp Business Account (see the architecture guide). */
export const TEMPLATES: readonly SimulatedTemplate[] = [
  simple('order_update', 'en_US', 'UTILITY', 'APPROVED', 'Hi {{1}}, your order {{2}} has shipped.', 'Ada', 'A-1001'),
  simple('order_update', 'es_ES', 'UTILITY', 'APPROVED', 'Hola {{1}}, tu pedido {{2}} ha sido enviado.', 'Ada', 'A-1001'),
  simple('welcome', 'en_US', 'MARKETING', 'APPROVED', 'Welcome to our service, {{1}}!', 'Ada'),
  simple('hello_world', 'en_US', 'UTILITY', 'APPROVED', 'Hello from our team.'),
  simple('spring_sale', 'en_US', 'MARKETING', 'PENDING', 'Spring sale: {{1}} off!', '20%'),
  simple('old_offer', 'en_US', 'MARKETING', 'REJECTED', 'Old offer {{1}}', '10%'),
  {
    name: 'spring_promo',
    language: 'en_US',
    category: 'MARKETING',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [HANDLE] } },
      body('Spring sale: {{1}} off everything until {{2}}.', '20%', 'Sunday'),
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/s/{{1}}', example: ['https://shop.example.com/s/spring'] },
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
        ],
      },
    ],
  },
  {
    name: 'login_code',
    language: 'en_US',
    category: 'AUTHENTICATION',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [
      body('{{1}} is your verification code.', '123456'),
      { type: 'FOOTER', text: 'This code expires in 10 minutes.' },
      { type: 'BUTTONS', buttons: [copyCodeButton('Copy code')] },
    ],
  },
  {
    name: 'delivery_window',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    parameter_format: 'NAMED',
    components: [
      {
        type: 'HEADER',
        format: 'TEXT',
        text: 'Delivery for {{customer}}',
        example: { header_text_named_params: [{ param_name: 'customer', example: 'Ada' }] },
      },
      {
        type: 'BODY',
        text: 'Your order {{order_id}} arrives between {{start}} and {{end}}.',
        example: {
          body_text_named_params: [
            { param_name: 'order_id', example: 'A-1001' },
            { param_name: 'start', example: '9:00' },
            { param_name: 'end', example: '12:00' },
          ],
        },
      },
      { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100100' }] },
    ],
  },
  {
    name: 'invoice_ready',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'HEADER', format: 'DOCUMENT', example: { header_handle: [HANDLE] } }, body('Your invoice {{1}} is ready.', 'INV-7')],
  },
  {
    name: 'store_visit',
    language: 'en_US',
    category: 'MARKETING',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'HEADER', format: 'LOCATION' }, body('See you at our {{1}} store!', 'Main Street')],
  },
  {
    name: 'coupon_drop',
    language: 'en_US',
    category: 'MARKETING',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'VIDEO', example: { header_handle: [HANDLE] } },
      body('Here is your coupon, {{1}}.', 'Ada'),
      { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'Copy offer code', example: 'SAVE20' }] },
    ],
  },
  {
    name: 'holiday_hours',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    parameter_format: 'POSITIONAL',
    components: [{ type: 'HEADER', format: 'TEXT', text: 'Holiday hours' }, body('We are closed on {{1}}.', 'Monday')],
  },
];

/** A 16-digit numeric id, stable per (WABA, name, language), so repeated syncs see the same ids. */
export function templateId(wabaId: string, template: Pick<SimulatedTemplate, 'name' | 'language'>): string {
  const digest = createHash('sha256').update(`${wabaId}\n${template.name}\n${template.language}`).digest();
  return (1_000_000_000_000_000n + (digest.readBigUInt64BE(0) % 9_000_000_000_000_000n)).toString();
}

/** A template as the Graph API lists it under `/{waba_id}/message_templates`. */
export interface GraphTemplate extends SimulatedTemplate {
  id: string;
}

export const toGraphTemplate = (wabaId: string, template: SimulatedTemplate): GraphTemplate => ({ ...template, id: templateId(wabaId, template) });

/** The distinct `{{…}}` placeholders of a text, in order of first appearance. */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((match) => match[1]))];
