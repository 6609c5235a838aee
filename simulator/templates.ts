import { createHash } from 'node:crypto';

export type TemplateCategory = 'UTILITY' | 'MARKETING' | 'AUTHENTICATION';
export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';

export interface SimulatedTemplate {
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** Body text with positional placeholders `{{1}}`, `{{2}}`, ... */
  body: string;
}

/** The simulator's template list, identical for every WhatsApp Business Account (see the architecture guide). */
export const TEMPLATES: readonly SimulatedTemplate[] = [
  { name: 'order_update', language: 'en_US', category: 'UTILITY', status: 'APPROVED', body: 'Hi {{1}}, your order {{2}} has shipped.' },
  { name: 'order_update', language: 'es_ES', category: 'UTILITY', status: 'APPROVED', body: 'Hola {{1}}, tu pedido {{2}} ha sido enviado.' },
  { name: 'welcome', language: 'en_US', category: 'MARKETING', status: 'APPROVED', body: 'Welcome to our service, {{1}}!' },
  { name: 'hello_world', language: 'en_US', category: 'UTILITY', status: 'APPROVED', body: 'Hello from our team.' },
  { name: 'spring_sale', language: 'en_US', category: 'MARKETING', status: 'PENDING', body: 'Spring sale: {{1}} off!' },
  { name: 'old_offer', language: 'en_US', category: 'MARKETING', status: 'REJECTED', body: 'Old offer {{1}}' },
];

/** A 16-digit numeric id, stable per (WABA, name, language), so repeated syncs see the same ids. */
export function templateId(wabaId: string, template: Pick<SimulatedTemplate, 'name' | 'language'>): string {
  const digest = createHash('sha256').update(`${wabaId}\n${template.name}\n${template.language}`).digest();
  return (1_000_000_000_000_000n + (digest.readBigUInt64BE(0) % 9_000_000_000_000_000n)).toString();
}

/** A template as the Graph API lists it under `/{waba_id}/message_templates`. */
export interface GraphTemplate {
  name: string;
  language: string;
  status: TemplateStatus;
  category: TemplateCategory;
  id: string;
  components: { type: 'BODY'; text: string }[];
  parameter_format: 'POSITIONAL';
}

export function toGraphTemplate(wabaId: string, template: SimulatedTemplate): GraphTemplate {
  return {
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category,
    id: templateId(wabaId, template),
    components: [{ type: 'BODY', text: template.body }],
    parameter_format: 'POSITIONAL',
  };
}
