import type { Template, TemplateButton } from '#shared/records/template';
import type { AcceptedInput } from '#shared/domain/templates/input';
import type { HeaderInput, RenderedHeader, RenderedTemplate } from '#shared/records/template-parameters';

/** A template as one message shows it (contract §12): its placeholders filled with the message's values. */

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

const fill = (text: string, values: Record<string, string>) =>
  text.replace(PLACEHOLDER, (placeholder, name: string) => (Object.hasOwn(values, name) ? values[name] : placeholder));

function renderHeader(template: Template, header: HeaderInput | null): RenderedHeader | null {
  const wanted = template.header;
  if (!wanted) return null;
  if (wanted.format === 'TEXT')
    return { format: 'TEXT', text: header && 'text' in header ? fill(wanted.text ?? '', { [wanted.placeholders[0]]: header.text }) : (wanted.text ?? '') };
  if (!header) return null;
  if ('image' in header) return { format: 'IMAGE', link: header.image.link ?? null, media_id: header.image.media_id ?? null };
  if ('video' in header) return { format: 'VIDEO', link: header.video.link ?? null, media_id: header.video.media_id ?? null };
  if ('document' in header)
    return { format: 'DOCUMENT', link: header.document.link ?? null, media_id: header.document.media_id ?? null, filename: header.document.filename ?? null };
  if ('location' in header) {
    const { latitude, longitude, name, address } = header.location;
    return { format: 'LOCATION', latitude, longitude, name: name ?? null, address: address ?? null };
  }
  return null;
}

function renderedButtonValue(button: TemplateButton, value: string | undefined): string | null {
  if (button.type === 'URL')
    return button.url === null ? null : button.placeholders.length && value !== undefined ? fill(button.url, { [button.placeholders[0]]: value }) : button.url;
  if (button.type === 'PHONE_NUMBER') return button.phone_number ?? null;
  return value ?? null;
}

/** The header, body, footer and buttons of the template with an accepted input's values in place. */
export function renderTemplate(template: Template, accepted: AcceptedInput): RenderedTemplate {
  return {
    header: renderHeader(template, accepted.header),
    body: fill(template.content, accepted.variables),
    footer: template.footer,
    buttons: template.buttons.map((button) => ({
      index: button.index,
      type: button.type,
      text: button.text,
      value: renderedButtonValue(button, accepted.buttons.get(button.index)),
    })),
  };
}
