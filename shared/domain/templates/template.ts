/** A template as clients see it; the record itself is shared/records/template.ts. */
import type { Template } from '#shared/records/template';

/** `waba_id`: the business account it belongs to (contract §17), always named in what clients see. */
export const publicTemplate = ({
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
  buttons,
  waba_id,
}: Template & { waba_id: string }) => ({
  id,
  waba_id,
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
