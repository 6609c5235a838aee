/** What the chat group operations answer (contract §23). */
import * as v from 'valibot';
import { count, recordId, timestamp } from '#shared/schemas/responses/common';
import { CHAT_GROUP_STATUSES, JOIN_APPROVAL_MODES } from '#shared/records/chat-group';

const customerId = v.pipe(v.nullable(v.string()), v.description('Digits of the WhatsApp number, when the platform gave it'));
const userId = v.pipe(v.nullable(v.string()), v.description("The platform's business-scoped user id, when it gave one"));

export const chatGroupParticipant = v.object({ wa_id: customerId, user_id: userId, username: v.nullable(v.string()), joined_at: timestamp() });

export const chatGroup = v.object({
  id: recordId(),
  from: v.pipe(v.string(), v.description('The business number (phone number id) that runs the group')),
  subject: v.string(),
  description: v.nullable(v.string()),
  join_approval_mode: v.picklist(JOIN_APPROVAL_MODES),
  status: v.pipe(v.picklist(CHAT_GROUP_STATUSES), v.description('`creating` until the platform reports the group; `failed` if it refused')),
  suspended: v.pipe(v.boolean(), v.description('The platform suspended the group: it takes no messages')),
  invite_link: v.nullable(v.string()),
  participants_count: count(),
  join_requests: v.array(v.object({ id: v.string(), wa_id: customerId, user_id: userId, requested_at: timestamp() })),
  platform_group_id: v.nullable(v.string()),
  error: v.pipe(
    v.nullable(v.object({ code: v.number(), message: v.string() })),
    v.description("The platform's reason it refused to create or delete the group"),
  ),
  created_at: timestamp(),
  updated_at: timestamp(),
});
