/**
 * The body of `POST /{waba_id}/message_templates` (create) and `POST /{template_id}` (edit): a
 * template's definition in the platform's own shape (Meta, "Template components"), the client's
 * components as given, except a media header's example, which the platform takes as the handle
 * of an upload (`example.header_handle`), never as a URL or bytes.
 */

import type { ComponentDefinition, TemplateDefinition } from '#shared/records/template-definition';

/** The example keys that only the service reads: the media it uploads in their place. */
const SERVICE_EXAMPLE_KEYS = ['header_url', 'header_base64', 'mime_type'];

/** The components as the platform takes them, the header's media example replaced by `handle`. */
export function platformComponents(components: ComponentDefinition[], handle: string | undefined): Record<string, unknown>[] {
  return components.map((component) => {
    if (component.type !== 'HEADER' || !component.example) return { ...component };
    const example = Object.fromEntries(Object.entries(component.example).filter(([key]) => !SERVICE_EXAMPLE_KEYS.includes(key)));
    const withHandle = handle ? { ...example, header_handle: [handle] } : example;
    const { example: _given, ...rest } = component;
    return Object.keys(withHandle).length ? { ...rest, example: withHandle } : rest;
  });
}

/** `POST /{waba_id}/message_templates` */
export const createTemplateBody = (definition: TemplateDefinition, handle: string | undefined) => ({
  name: definition.name,
  language: definition.language,
  category: definition.category,
  parameter_format: definition.parameter_format,
  components: platformComponents(definition.components, handle),
});

/** `POST /{template_id}`: the components, and the category when it changes. */
export const editTemplateBody = (components: ComponentDefinition[], handle: string | undefined, category: string | undefined) => ({
  components: platformComponents(components, handle),
  ...(category && { category }),
});
