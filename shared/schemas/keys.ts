import * as v from 'valibot';
import { droppable, text, uuid } from '#shared/schemas/common';

/** POST /api/v1/keys */
export const createKeyBody = /* @__PURE__ */ droppable(() =>
  v.object({
    name: text(100),
    description: v.optional(v.pipe(v.string(), v.maxLength(500, 'Must be at most 500 characters'))),
  }),
);

/** DELETE /api/v1/keys */
export const revokeKeyQuery = /* @__PURE__ */ droppable(() => v.object({ id: uuid() }));
