import * as v from 'valibot';
import { droppable, pageParams, text, uuid } from '#shared/schemas/common';

/** POST /api/v1/groups */
export const createGroupBody = /* @__PURE__ */ droppable(() =>
  v.object({
    name: text(200),
    description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, 'Must be at most 1000 characters')))),
  }),
);

/** GET /api/v1/groups */
export const listGroupsQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));

/** GET /api/v1/groups/{id}/contacts */
export const listGroupMembersQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));

/** POST and DELETE /api/v1/groups/{id}/contacts: 1–1000 contact UUIDs. */
export const groupMembersBody = /* @__PURE__ */ droppable(() =>
  v.object({
    contact_ids: v.pipe(v.array(uuid()), v.minLength(1, 'At least 1 contact id'), v.maxLength(1000, 'At most 1000 contact ids')),
  }),
);
