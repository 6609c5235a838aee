import { getMany, queryPage } from '#shared/data/table/pages';
import { QueryCommand } from '#shared/data/table/commands';
import { queryAll } from '#shared/data/table/query-all';
import { db, tableName } from '#shared/data/table/client';
import { indexes } from '#shared/data/table/table';
import { mapLimit } from '#shared/concurrency';
import { BATCH_GET_KEYS, contactKey, contactListEntry, contactsByIds, READ_CONCURRENCY, tagItemKey, taggedListEntry, toContact } from '#shared/data/contact';
import { counterNames, readListCount } from '#shared/data/counter';
import type { Contact, CustomFieldValue, StoredContact } from '#shared/records/contact';

/* Lists of contacts from the `byParent` index: the workspace's, a tag's, those with given custom fields; which carry a tag. */

/** Newest first (ids are UUIDv7) under one `byParent` partition. */
function children(GSI1PK: string, filter?: { expression: string; values: Record<string, string> }) {
  return {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': GSI1PK, ...filter?.values },
    ...(filter && { FilterExpression: filter.expression }),
    ScanIndexForward: false,
  };
}

/** A page of the workspace's contacts, newest first, with the exact count. */
export async function contactsPage(ws: string, page: number, pageSize: number): Promise<{ contacts: Contact[]; total: number }> {
  const [items, total] = await Promise.all([
    queryPage<Record<string, unknown>>(children(contactListEntry(ws).GSI1PK), page, pageSize),
    readListCount(ws, counterNames.contacts),
  ]);
  return { contacts: items.map(toContact), total };
}

/** A page of the contacts carrying a tag (its index form), with the exact count from the tag's counter. */
export async function taggedPage(ws: string, tag: string, page: number, pageSize: number): Promise<{ contacts: Contact[]; total: number }> {
  const [members, total] = await Promise.all([
    queryPage<{ GSI1SK: string }>(children(taggedListEntry(ws, tag).GSI1PK), page, pageSize),
    readListCount(ws, counterNames.tag(tag)),
  ]);
  return {
    contacts: await contactsByIds(
      ws,
      members.map((member) => member.GSI1SK),
    ),
    total,
  };
}

/** The ids of every contact carrying a tag (its index form), newest first: index entries only, no contact read. */
export async function taggedContactIds(ws: string, tag: string): Promise<string[]> {
  const members = await queryAll<{ GSI1SK: string }>({ ...children(taggedListEntry(ws, tag).GSI1PK), ProjectionExpression: 'GSI1SK' });
  return members.map((member) => member.GSI1SK);
}

/**
 * The contacts carrying a tag (its index form) and not yet in `seen` (which it adds them to), in no
 * order: each page of index entries is read by key while the next page is queried, so the reads
 * overlap the query instead of waiting for all of it.
 */
export async function taggedContacts(ws: string, tag: string, seen: Set<string>): Promise<StoredContact[]> {
  const reads: Promise<StoredContact[]>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ ...children(taggedListEntry(ws, tag).GSI1PK), ProjectionExpression: 'GSI1SK', TableName: tableName(), ExclusiveStartKey }),
    );
    const ids = (page.Items ?? []).map((item) => item.GSI1SK as string).filter((id) => !seen.has(id) && seen.add(id));
    const read = contactsByIds(ws, ids);
    // Awaited below; until then a failed read must not count as unhandled.
    void read.catch(() => undefined);
    reads.push(read);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return (await Promise.all(reads)).flat();
}

/**
 * Every contact whose custom fields equal all of these (same type and value), newest first.
 * DynamoDB filters, but reads (and bills) the whole contact book.
 */
export async function contactsWithCustomFields(ws: string, fields: Record<string, CustomFieldValue>): Promise<StoredContact[]> {
  const entries = Object.entries(fields);
  const { ExpressionAttributeValues, ...query } = children(contactListEntry(ws).GSI1PK);
  const items = await queryAll<Record<string, unknown>>({
    ...query,
    FilterExpression: entries.map((_, i) => `#fields.#f${i} = :f${i}`).join(' AND '),
    ExpressionAttributeNames: { '#fields': 'custom_fields', ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])) },
    ExpressionAttributeValues: { ...ExpressionAttributeValues, ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])) },
  });
  return items.map(toContact);
}

/** Which of these contacts carry a tag (its index form), from their tag items. */
export async function contactsCarrying(ws: string, tag: string, ids: string[]): Promise<Set<string>> {
  const slices = Array.from({ length: Math.ceil(ids.length / BATCH_GET_KEYS) }, (_, i) => ids.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS));
  const found = await mapLimit(slices, READ_CONCURRENCY, (slice) => getMany<{ PK: string }>(slice.map((id) => tagItemKey(ws, id, tag))));
  const prefix = contactKey(ws, '').PK;
  return new Set(found.flat().map((item) => item.PK.slice(prefix.length)));
}
