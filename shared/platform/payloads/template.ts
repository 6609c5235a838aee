/**
 * The template part of a send request (Cloud API `template`, docs/platform-requests.md): the
 * `components` that carry a message's parameters, built from values the domain has checked
 * against the template (shared/domain/templates/parameters.ts).
 */

/** What the request is built from: the template as synced from the platform (the domain's `Template` has these fields). */
export interface TemplateShape {
  name: string;
  language: string;
  parameter_format: 'POSITIONAL' | 'NAMED';
  /** The body's placeholders, in order of first appearance. */
  placeholders: string[];
  header: { placeholders: string[] } | null;
  /** `index`: the button's position in the template, the platform's `index`. */
  buttons: { index: number; type: string; placeholders: string[] }[];
}

export interface MediaReference {
  link?: string;
  media_id?: string;
}

/** A header's parameter, by the header's format; our API takes headers in this shape. */
export type HeaderParameter =
  | { text: string }
  | { image: MediaReference }
  | { video: MediaReference }
  | { document: MediaReference & { filename?: string } }
  | { location: { latitude: number; longitude: number; name?: string; address?: string } };

/** A message's values for its template: the header's, the body's by placeholder name, the buttons' by index. */
export interface TemplateValues {
  header: HeaderParameter | null;
  variables: Record<string, string>;
  buttons: Map<number, string>;
}

/** A component of the platform's template send request (Cloud API `template.components`). */
export interface PlatformComponent {
  type: 'header' | 'body' | 'button';
  sub_type?: 'url' | 'quick_reply' | 'copy_code';
  index?: string;
  parameters: Record<string, unknown>[];
}

/**
 * The order the platform fills placeholders in: by name for a named template; by number for a
 * positional one (`{{1}}` takes the first value, wherever it first appears in the text).
 */
export const fillOrder = (template: Pick<TemplateShape, 'parameter_format' | 'placeholders'>) =>
  template.parameter_format === 'NAMED' ? template.placeholders : [...template.placeholders].sort((a, b) => Number(a) - Number(b));

const mediaParameter = (media: MediaReference, extra: Record<string, unknown> = {}) => ({
  ...(media.link !== undefined ? { link: media.link } : { id: media.media_id }),
  ...extra,
});

function headerComponent(template: TemplateShape, header: HeaderParameter | null): PlatformComponent | undefined {
  if (!header) return undefined;
  const named = template.parameter_format === 'NAMED';
  if ('text' in header)
    return { type: 'header', parameters: [{ type: 'text', ...(named && { parameter_name: template.header!.placeholders[0] }), text: header.text }] };
  if ('image' in header) return { type: 'header', parameters: [{ type: 'image', image: mediaParameter(header.image) }] };
  if ('video' in header) return { type: 'header', parameters: [{ type: 'video', video: mediaParameter(header.video) }] };
  if ('document' in header) {
    const { filename, ...media } = header.document;
    return { type: 'header', parameters: [{ type: 'document', document: mediaParameter(media, filename !== undefined ? { filename } : {}) }] };
  }
  return { type: 'header', parameters: [{ type: 'location', location: header.location }] };
}

/** The platform's request shape for each button that carries a parameter. */
function buttonComponent(button: TemplateShape['buttons'][number], value: string): PlatformComponent | undefined {
  const index = String(button.index);
  if (button.type === 'URL' && button.placeholders.length) return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text: value }] };
  // Authentication templates' copy-code button is sent as a URL button whose parameter is the code.
  if (button.type === 'OTP') return { type: 'button', sub_type: 'url', index, parameters: [{ type: 'text', text: value }] };
  if (button.type === 'COPY_CODE') return { type: 'button', sub_type: 'copy_code', index, parameters: [{ type: 'coupon_code', coupon_code: value }] };
  if (button.type === 'QUICK_REPLY') return { type: 'button', sub_type: 'quick_reply', index, parameters: [{ type: 'payload', payload: value }] };
  return undefined;
}

/** The components for a message's values: the header's parameter, the body's in fill order, then each button's that takes one. */
export function templateComponents(template: TemplateShape, values: TemplateValues): PlatformComponent[] {
  const named = template.parameter_format === 'NAMED';
  const order = fillOrder(template);
  const components: PlatformComponent[] = [];
  const header = headerComponent(template, values.header);
  if (header) components.push(header);
  if (order.length) {
    components.push({
      type: 'body',
      parameters: order.map((name) => ({ type: 'text', ...(named && { parameter_name: name }), text: values.variables[name] })),
    });
  }
  for (const button of template.buttons) {
    const value = values.buttons.get(button.index);
    const part = value === undefined ? undefined : buttonComponent(button, value);
    if (part) components.push(part);
  }
  return components;
}

/** A template message's object: the template's name and language, and its components when it has any. */
export const templateObject = (template: Pick<TemplateShape, 'name' | 'language'>, components: PlatformComponent[]) => ({
  name: template.name,
  language: { code: template.language },
  ...(components.length && { components }),
});
