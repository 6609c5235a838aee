/** What the group operations answer (contract §7). */
import * as v from 'valibot';
import { count, recordId, timestamp } from '#shared/schemas/responses/common';

export const group = v.object({ id: recordId(), name: v.string(), description: v.nullable(v.string()), contacts_count: count(), created_at: timestamp() });

export const groupMembersAdded = v.object({
  group_id: recordId(),
  added_count: v.pipe(count(), v.description('Memberships this request created (contacts already in the group are not counted)')),
  total_contacts: count(),
  not_found_ids: v.array(recordId()),
});

export const groupMembersRemoved = v.object({ group_id: recordId(), removed_count: count(), total_contacts: count() });
