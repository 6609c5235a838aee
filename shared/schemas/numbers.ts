import * as v from 'valibot';
import { droppable, platformId } from '#shared/schemas/common';

/** POST /api/v1/numbers */
export const connectNumberBody = /* @__PURE__ */ droppable(() =>
  v.object({ phone_number_id: platformId('phone number id'), waba_id: platformId('WhatsApp Business Account id') }),
);

/** PATCH /api/v1/numbers/{id} */
export const updateNumberBody = /* @__PURE__ */ droppable(() => v.object({ is_default: v.literal(true, 'Only true: make this number the default') }));

/** /api/v1/numbers/{id} */
export const numberParams = /* @__PURE__ */ droppable(() => v.object({ id: platformId('phone number id') }));
