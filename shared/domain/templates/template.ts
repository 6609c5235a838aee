/** A template as clients see it; the record itself is shared/records/template.ts. */
import type { Template } from '#shared/records/template';

export const publicTemplate = ({ id, name, language, category, status, content, parameter_format, placeholders, header, footer, buttons }: Template) => ({
  id,
  name,
  language,
  category,
  status,
  content,
  parameter_format,
  placeholders,
  header,
  footer,
  buttons: buttons.map(({ index, type, text, url, placeholders: buttonPlaceholders }) => ({ index, type, text, url, placeholders: buttonPlaceholders })),
});
