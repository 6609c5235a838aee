import * as v from 'valibot';
import { TEMPLATE_STATUSES } from '#shared/records/template';
import { droppable } from '#shared/schemas/common';

/** GET /api/v1/templates */
export const listTemplatesQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    status: v.optional(v.picklist(TEMPLATE_STATUSES, `Must be one of ${TEMPLATE_STATUSES.join(', ')}`), 'APPROVED'),
    name: v.optional(v.string()),
    language: v.optional(v.string()),
    waba_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,30}$/, "Must be the platform's WhatsApp Business Account id (digits)"))),
  }),
);
