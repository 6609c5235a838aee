import * as v from 'valibot';
import { droppable, keyBody, uuid } from '#shared/schemas/common';

/** POST /api/v1/keys */
export const createKeyBody = /* @__PURE__ */ droppable(() => keyBody());

/** DELETE /api/v1/keys */
export const revokeKeyQuery = /* @__PURE__ */ droppable(() => v.object({ id: uuid() }));
