import { deleteAllMemberships, deleteGroupItem, getGroup, groupsPage, insertGroup, type Group } from '#shared/data/group';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { pagination } from '#shared/pagination';
import { nowIso } from '#shared/time';

export type { Group };

export const createGroup = (ws: string, input: { name: string; description?: string | null }): Promise<Group> =>
  insertGroup(ws, { id: newId(), name: input.name, description: input.description ?? null, created_at: nowIso() });

export async function requireGroup(ws: string, id: string, consistent = false): Promise<Group> {
  const group = await getGroup(ws, id, consistent);
  if (!group) throw errors.notFound('Group');
  return group;
}

export async function listGroups(ws: string, page: number, pageSize: number) {
  const { groups, total } = await groupsPage(ws, page, pageSize);
  return { data: groups, pagination: pagination(page, pageSize, total) };
}

/** Deletes the group (so no member can be added any more), then its memberships on both sides. Contacts stay. */
export async function deleteGroup(ws: string, id: string): Promise<void> {
  if (!(await deleteGroupItem(ws, id))) throw errors.notFound('Group');
  await deleteAllMemberships(ws, id);
}
