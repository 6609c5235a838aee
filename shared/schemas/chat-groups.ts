import * as v from 'valibot';
import { businessNumber, droppable, pageParams, text, uuid } from '#shared/schemas/common';
import { CHAT_GROUP_LIMITS, JOIN_APPROVAL_MODES } from '#shared/records/chat-group';

/** POST /api/v1/chat-groups: the platform's limits on subject and description (docs/platform-groups.md §0). */
export const createChatGroupBody = /* @__PURE__ */ droppable(() =>
  v.object({
    from: v.optional(businessNumber()),
    subject: text(CHAT_GROUP_LIMITS.subject),
    description: v.optional(
      v.nullable(v.pipe(v.string(), v.maxLength(CHAT_GROUP_LIMITS.description, `Must be at most ${CHAT_GROUP_LIMITS.description} characters`))),
    ),
    join_approval_mode: v.optional(v.picklist(JOIN_APPROVAL_MODES)),
  }),
);

/** GET /api/v1/chat-groups */
export const listChatGroupsQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));

/** DELETE /api/v1/chat-groups/{id}/participants/{wa_id}: a number's digits (a leading + allowed) or a business-scoped user id. */
export const participantParams = /* @__PURE__ */ droppable(() =>
  v.object({ id: uuid(), wa_id: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.regex(/^\+?[\w.-]+$/, 'Must be a WhatsApp number or user id')) }),
);

/** POST /api/v1/chat-groups/{id}/join-requests/{request_id} */
export const joinRequestParams = /* @__PURE__ */ droppable(() =>
  v.object({ id: uuid(), request_id: v.pipe(v.string(), v.minLength(1), v.maxLength(256), v.regex(/^[\w=+/-]+$/, "Must be the platform's join request id")) }),
);
export const joinRequestAnswerBody = /* @__PURE__ */ droppable(() => v.object({ approve: v.boolean() }));
