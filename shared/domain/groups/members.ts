import { getMany, queryPage } from '#shared/data/table/pages';
import { pagination } from '#shared/pagination';
import { keys } from '#shared/data/keys';
import { tableName } from '#shared/data/table/client';
import { applyUnits, type Unit } from '#shared/data/table/units';
import { publicContact, type Contact } from '#shared/domain/contacts/contact';
import { requireGroup } from '#shared/domain/groups/groups';

/** Members newest contact first; the count is the group's live counter. */
export async function listMembers(ws: string, groupId: string, page: number, pageSize: number) {
  const group = await requireGroup(ws, groupId);
  const members = await queryPage<{ SK: string }>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :member)',
      ExpressionAttributeValues: { ':pk': keys.group(ws, groupId).PK, ':member': 'MEMBER#' },
      ScanIndexForward: false,
    },
    page,
    pageSize,
  );
  const contacts = await getMany<Contact>(members.map((member) => keys.contact(ws, member.SK.slice('MEMBER#'.length))));
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
  const found = new Set((await getMany<Contact>(ids.map((id) => keys.contact(ws, id)))).map((contact) => contact.id));
  const alreadyIn = await membersAmong(ws, groupId, ids.filter((id) => found.has(id)));
  const units: Unit[] = ids
    .filter((id) => found.has(id) && !alreadyIn.has(id))
    .map((contactId) => ({
      items: [
        { Put: { TableName: tableName(), Item: keys.groupMember(ws, groupId, contactId), ConditionExpression: 'attribute_not_exists(PK)' } },
        { Put: { TableName: tableName(), Item: keys.contactGroup(ws, contactId, groupId) } },
        { ConditionCheck: { TableName: tableName(), Key: keys.contact(ws, contactId), ConditionExpression: 'attribute_exists(PK)' } },
      ],
      counters: [{ key: keys.group(ws, groupId), delta: 1, mustExist: true }],
    }));
  const added = await applyUnits(units);
  const group = await requireGroup(ws, groupId, true);
  return { group_id: groupId, added_count: added, total_contacts: group.contacts_count, not_found_ids: ids.filter((id) => !found.has(id)) };
}

async function membersAmong(ws: string, groupId: string, contactIds: string[]): Promise<Set<string>> {
  const members = await getMany<{ SK: string }>(contactIds.map((id) => keys.groupMember(ws, groupId, id)));
  return new Set(members.map((member) => member.SK.slice('MEMBER#'.length)));
}

export async function removeMembers(ws: string, groupId: string, contactIds: string[]) {
  await requireGroup(ws, groupId);
  const members = await membersAmong(ws, groupId, [...new Set(contactIds)]);
  const units: Unit[] = [...members].map((contactId) => ({
    items: [
      { Delete: { TableName: tableName(), Key: keys.groupMember(ws, groupId, contactId), ConditionExpression: 'attribute_exists(PK)' } },
      { Delete: { TableName: tableName(), Key: keys.contactGroup(ws, contactId, groupId) } },
    ],
    counters: [{ key: keys.group(ws, groupId), delta: -1, mustExist: true }],
  }));
  const removed = await applyUnits(units);
  const group = await requireGroup(ws, groupId, true);
  return { group_id: groupId, removed_count: removed, total_contacts: group.contacts_count };
}
