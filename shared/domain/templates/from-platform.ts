import type { PlatformTemplate, PlatformTemplateButton } from '#shared/platform/graph-client';
import { placeholdersOf, type HeaderFormat, type Template, type TemplateButton } from '#shared/records/template';

/**
 * An authentication template's one-time-code button: created as `OTP`, the platform lists it as a
 * URL button whose url carries the code (`…/otp/code/?otp_type=…&code=otp{{1}}`).
 */
const isOneTimeCode = (given: PlatformTemplateButton) =>
  given.type.toUpperCase() === 'OTP' || (given.type.toUpperCase() === 'URL' && /[?&]otp_type=/.test(given.url ?? ''));

function button(given: PlatformTemplateButton, index: number): TemplateButton {
  const url = given.url ?? null;
  return {
    index,
    type: isOneTimeCode(given) ? 'OTP' : given.type.toUpperCase(),
    text: given.text ?? '',
    url,
    phone_number: given.phone_number ?? null,
    placeholders: url ? placeholdersOf(url) : [],
  };
}

/**
 * A template of the platform's list (`GET /{waba_id}/message_templates`, its `components` with
 * `HEADER`, `BODY`, `FOOTER` and `BUTTONS`) as the service keeps it. Component types and header
 * formats are matched case-insensitively; a header format the service does not know (e.g. GIF,
 * PRODUCT) is kept as its name, with no placeholder.
 */
export function fromPlatform(template: PlatformTemplate): Template {
  const component = (type: string) => template.components?.find((c) => c.type.toUpperCase() === type);
  const body = component('BODY')?.text ?? '';
  const header = component('HEADER');
  const format = (header?.format ?? 'TEXT').toUpperCase() as HeaderFormat;
  const headerText = format === 'TEXT' ? (header?.text ?? '') : null;
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    category: template.category,
    status: template.status,
    content: body,
    parameter_format: template.parameter_format?.toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    placeholders: placeholdersOf(body),
    header: header ? { format, text: headerText, placeholders: headerText ? placeholdersOf(headerText) : [] } : null,
    footer: component('FOOTER')?.text ?? null,
    buttons: (component('BUTTONS')?.buttons ?? []).map(button),
  };
}
