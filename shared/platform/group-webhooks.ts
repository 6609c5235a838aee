/**
 * The four webhook fields of the platform's Groups API (docs/platform-groups.md §3):
 * `group_lifecycle_update`, `group_participants_update`, `group_settings_update` and
 * `group_status_update`. Each `value.groups[]` item names its group and a `type`; anything
 * malformed is left out. The parser knows the wire only.
 */
import { list, object, phoneOf, str, time, type Json } from '#shared/platform/webhook-values';

export const GROUP_FIELDS = ['group_lifecycle_update', 'group_participants_update', 'group_settings_update', 'group_status_update'] as const;

/** A customer as a group webhook names them: `wa_id` (or the older `input`), and the business-scoped user id when given. */
export interface GroupPerson {
  wa_id: string | null;
  user_id: string | null;
  username: string | null;
}

interface Common {
  phoneNumberId: string;
  /** The platform's group id (a failed creation may still carry one). */
  groupId: string | null;
  at: string;
}

export type GroupUpdate = Common &
  (
    | { kind: 'created'; requestId: string; subject: string | null; description: string | null; inviteLink: string | null; joinApprovalMode: string | null }
    | { kind: 'create_failed'; requestId: string; error: { code: number; message: string } }
    | { kind: 'deleted' }
    | { kind: 'delete_failed'; error: { code: number; message: string } }
    | { kind: 'participants_added'; people: GroupPerson[] }
    | { kind: 'participants_removed'; people: GroupPerson[] }
    | { kind: 'join_request_created'; joinRequestId: string; person: GroupPerson }
    | { kind: 'join_request_revoked'; joinRequestId: string }
    | { kind: 'settings'; subject: string | null; description: string | null }
    | { kind: 'suspended'; suspended: boolean }
  );

const person = (item: Json): GroupPerson => ({
  wa_id: phoneOf(item.wa_id) ?? phoneOf(item.input),
  user_id: str(item.user_id) ?? null,
  username: str(item.username) ?? null,
});
const named = (p: GroupPerson) => Boolean(p.wa_id || p.user_id);

/** The first of an item's `errors`, as the platform gave it. */
function firstError(item: Json): { code: number; message: string } | undefined {
  const error = list(item.errors)[0];
  if (!error) return undefined;
  return { code: Number(error.code) || 0, message: str(error.message) ?? str(error.title) ?? 'Unknown error' };
}

/** A settings item's subject or description text, when the platform reports it was applied. */
const applied = (part: unknown): string | null => {
  const value = object(part);
  return value && value.update_successful !== false ? (str(value.text) ?? null) : null;
};

function readItem(field: string, item: Json, common: Common): GroupUpdate | undefined {
  const type = str(item.type);
  const requestId = str(item.request_id);
  const error = firstError(item);
  if (field === 'group_lifecycle_update') {
    if (type === 'group_create' && requestId && error) return { ...common, kind: 'create_failed', requestId, error };
    if (type === 'group_create' && requestId && common.groupId)
      return {
        ...common,
        kind: 'created',
        requestId,
        subject: str(item.subject) ?? null,
        description: str(item.description) ?? null,
        inviteLink: str(item.invite_link) ?? null,
        joinApprovalMode: str(item.join_approval_mode) ?? null,
      };
    if (type === 'group_delete' && common.groupId) return error ? { ...common, kind: 'delete_failed', error } : { ...common, kind: 'deleted' };
    return undefined;
  }
  if (!common.groupId) return undefined;
  if (field === 'group_participants_update') {
    if (type === 'group_participants_add') return { ...common, kind: 'participants_added', people: list(item.added_participants).map(person).filter(named) };
    if (type === 'group_participants_remove')
      return { ...common, kind: 'participants_removed', people: list(item.removed_participants).map(person).filter(named) };
    const joinRequestId = str(item.join_request_id);
    if (type === 'group_join_request_created' && joinRequestId) return { ...common, kind: 'join_request_created', joinRequestId, person: person(item) };
    if (type === 'group_join_request_revoked' && joinRequestId) return { ...common, kind: 'join_request_revoked', joinRequestId };
    return undefined;
  }
  if (field === 'group_settings_update')
    return { ...common, kind: 'settings', subject: applied(item.group_subject), description: applied(item.group_description) };
  if (field === 'group_status_update' && (type === 'group_suspend' || type === 'group_suspend_cleared'))
    return { ...common, kind: 'suspended', suspended: type === 'group_suspend' };
  return undefined;
}

/** The group updates of one change of a group field, for the number in its metadata. */
export function readGroupUpdates(field: string, value: Json): GroupUpdate[] {
  const phoneNumberId = str(object(value.metadata)?.phone_number_id);
  if (!phoneNumberId) return [];
  return list(value.groups).flatMap((item) => readItem(field, item, { phoneNumberId, groupId: str(item.group_id) ?? null, at: time(item.timestamp) }) ?? []);
}
