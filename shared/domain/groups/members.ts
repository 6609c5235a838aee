import { contactsByIds } from '#shared/data/contact';
import { joinGroup, leaveGroup, memberIdsPage, membersAmong } from '#shared/data/group';
import { publicContact } from '#shared/domain/contacts/contact';
import { requireGroup } from '#shared/domain/groups/groups';
import { pagination } from '#shared/pagination';

/** Members newest contact first; the count is the group's live counter. */
export async function listMembers(ws: string, groupId: string, page: number, pageSize: number) {
  const group = await requireGroup(ws, groupId);
  const contacts = await contactsByIds(ws, await memberIdsPage(ws, groupId, page, pageSize));
  return { data: contacts.map(publicContact), pagination: pagination(page, pageSize, group.contacts_count) };
}

/**
 * Adds contacts to a group. Each membership (both sides, the contact's existence checked) moves
 * the group's count in the same transaction, so `added_count` counts only memberships this call
 * created, even when the same contacts are added concurrently.
 */
export async function addMembers(ws: string, groupId: string, contactIds: string[]) {
  await requireGroup(ws, groupId);
  const ids = [...new Set(contactIds)];
  const found = new Set((await contactsByIds(ws, ids)).map((contact) => contact.id));
  const alreadyIn = await membersAmong(
    ws,
    groupId,
    ids.filter((id) => found.has(id)),
  );
  const added = await joinGroup(
    ws,
    groupId,
    ids.filter((id) => found.has(id) && !alreadyIn.has(id)),
  );
  const group = await requireGroup(ws, groupId, true);
  return { group_id: groupId, added_count: added, total_contacts: group.contacts_count, not_found_ids: ids.filter((id) => !found.has(id)) };
}

export async function removeMembers(ws: string, groupId: string, contactIds: string[]) {
  await requireGroup(ws, groupId);
  const members = await membersAmong(ws, groupId, [...new Set(contactIds)]);
  const removed = await leaveGroup(ws, groupId, [...members]);
  const group = await requireGroup(ws, groupId, true);
  return { group_id: groupId, removed_count: removed, total_contacts: group.contacts_count };
}
