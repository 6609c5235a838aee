import { QueryCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { failedConditions, transact, type TransactItem } from '#shared/data/table/transact';
import { applyUnits, GuardFailed, type Unit } from '#shared/data/table/units';
import {
  contactItem,
  contactKey,
  phoneClaim,
  phoneClaimKey,
  previousUserClaim,
  TAG,
  tagItemKey,
  taggedListEntry,
  userClaim,
  userClaimKey,
} from '#shared/data/contact';
import { counterKey, counterMove, counterNames } from '#shared/data/counter';
import { CONTACT_GROUP, leaveUnit } from '#shared/data/group';
import { tagKey, type Contact, type StoredContact } from '#shared/records/contact';

/* Changes to a stored contact: a replacement (its claims in the same transaction, then its tags), a deletion. Its search entries follow from the stream (contact-search.ts). */

/** The contact's item collection beyond the contact itself: its tag and group items. */
async function collection(ws: string, id: string) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': contactKey(ws, id).PK },
      ConsistentRead: true,
    }),
  );
  const sortKeys = Items.map((item) => item.SK as string);
  return {
    tags: sortKeys.filter((sk) => sk.startsWith(TAG)).map((sk) => sk.slice(TAG.length)),
    groups: sortKeys.filter((sk) => sk.startsWith(CONTACT_GROUP)).map((sk) => sk.slice(CONTACT_GROUP.length)),
  };
}

const versionGuard = (ws: string, id: string, version: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: contactKey(ws, id),
    ConditionExpression: 'version = :version',
    ExpressionAttributeValues: { ':version': version },
  },
});

function tagUnit(ws: string, contact: Contact, tag: string, change: 'add' | 'remove'): Unit {
  const key = tagItemKey(ws, contact.id, tag);
  const item: TransactItem =
    change === 'add'
      ? { Put: { TableName: tableName(), Item: { ...key, ...taggedListEntry(ws, tag, contact.id) }, ConditionExpression: 'attribute_not_exists(PK)' } }
      : { Delete: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(PK)' } };
  return { items: [item], counters: [{ key: counterKey(ws, counterNames.tag(tag)), delta: change === 'add' ? 1 : -1 }] };
}

/**
 * Brings the tag index in line with the contact as written at `version`. It runs after the
 * contact write and diffs against the tag items actually stored, so a write interrupted
 * half-way is repaired by the next one; every step is guarded by the version, so a newer
 * writer (which reconciles after its own write) always has the last word.
 */
export async function reconcileTags(ws: string, contact: Contact, version: number): Promise<void> {
  const stored = new Set((await collection(ws, contact.id)).tags);
  const wanted = new Set(contact.tags.map(tagKey));
  const units = [
    ...[...wanted].filter((tag) => !stored.has(tag)).map((tag) => tagUnit(ws, contact, tag, 'add')),
    ...[...stored].filter((tag) => !wanted.has(tag)).map((tag) => tagUnit(ws, contact, tag, 'remove')),
  ];
  if (!units.length) return;
  try {
    await applyUnits(units, [versionGuard(ws, contact.id, version)]);
  } catch (error) {
    if (!(error instanceof GuardFailed)) throw error;
  }
}

/**
 * Writes `after` over `before` if nobody wrote in between (`stale` otherwise); moves the phone
 * claim when the number changes (`phone_taken` when another contact holds the new one), takes the
 * user claim of a user id added or replaced (`user_taken` when another contact holds it), and keeps
 * the claims of its previous ids in line with their list.
 */
export async function replaceContact(ws: string, before: StoredContact, after: Contact): Promise<'replaced' | 'stale' | 'phone_taken' | 'user_taken'> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: contactItem(ws, after, before.version + 1),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': before.version },
      },
    },
  ];
  const phoneChanged = after.phone_number !== before.phone_number;
  if (phoneChanged) {
    items.push({ Put: { TableName: tableName(), Item: phoneClaim(ws, after), ConditionExpression: 'attribute_not_exists(PK)' } });
    if (before.phone_number) items.push({ Delete: { TableName: tableName(), Key: phoneClaimKey(ws, before.phone_number) } });
  } else if (after.phone_number && (after.opted_out_at ?? null) !== (before.opted_out_at ?? null)) {
    items.push({ Put: { TableName: tableName(), Item: phoneClaim(ws, after) } });
  }
  // A user id is added (the platform reported it with the number) or replaced (the platform regenerated it), never removed:
  // its claim is taken unless another contact holds it, and a replaced one is kept as a previous id's claim.
  const userChanged = Boolean(after.user_id && after.user_id !== before.user_id);
  const userClaimAt = items.length;
  if (userChanged) {
    items.push({ Put: { TableName: tableName(), Item: userClaim(ws, after), ConditionExpression: 'attribute_not_exists(PK)' } });
  } else if (after.user_id && (after.opted_out_at ?? null) !== (before.opted_out_at ?? null)) {
    items.push({ Put: { TableName: tableName(), Item: userClaim(ws, after) } });
  }
  // The previous ids' claims follow the list: a new one's claim is rewritten without the opt-out, a dropped one's deleted.
  const [previousBefore, previousAfter] = [before.previous_user_ids ?? [], after.previous_user_ids ?? []];
  for (const previous of previousAfter.filter((id) => !previousBefore.includes(id)))
    items.push({ Put: { TableName: tableName(), Item: previousUserClaim(ws, previous, after.id) } });
  for (const dropped of previousBefore.filter((id) => !previousAfter.includes(id) && id !== after.user_id))
    items.push({ Delete: { TableName: tableName(), Key: userClaimKey(ws, dropped) } });
  try {
    await transact(items);
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    if (phoneChanged && failed.includes(1)) return 'phone_taken';
    return userChanged && failed.includes(userClaimAt) ? 'user_taken' : 'stale';
  }
  await reconcileTags(ws, after, before.version + 1);
  return 'replaced';
}

/**
 * Leaves the contact's groups and tags (each step idempotent and counted), then deletes the
 * contact and its phone and user claims (its previous user ids' too). False when the contact changed meanwhile (read it again).
 * Interrupted, it leaves a contact with fewer tags or groups, which a repeat finishes.
 */
export async function deleteContactRecords(ws: string, contact: StoredContact): Promise<boolean> {
  const { tags, groups } = await collection(ws, contact.id);
  const units: Unit[] = [...tags.map((tag) => tagUnit(ws, contact, tag, 'remove')), ...groups.map((groupId) => leaveUnit(ws, groupId, contact.id, 'contact'))];
  try {
    await applyUnits(units, [versionGuard(ws, contact.id, contact.version)]);
    await transact([
      {
        Delete: {
          TableName: tableName(),
          Key: contactKey(ws, contact.id),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': contact.version },
        },
      },
      ...(contact.phone_number ? [{ Delete: { TableName: tableName(), Key: phoneClaimKey(ws, contact.phone_number) } }] : []),
      ...[contact.user_id, ...(contact.previous_user_ids ?? [])]
        .filter((userId): userId is string => Boolean(userId))
        .map((userId) => ({ Delete: { TableName: tableName(), Key: userClaimKey(ws, userId) } })),
      counterMove(ws, counterNames.contacts, -1),
    ]);
    return true;
  } catch (error) {
    if (error instanceof GuardFailed || failedConditions(error)) return false;
    throw error;
  }
}
