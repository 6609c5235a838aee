/** A launch's `segment` (contract §15): contacts chosen by tags and custom fields, and the tags that exclude numbers. */
import { contactsByIds } from '#shared/data/contact';
import { contactsWithCustomFields, taggedContactIds, taggedContacts } from '#shared/data/contact-list';
import { counterNames, readListCount } from '#shared/data/counter';
import type { Segment } from '#shared/records/campaign';
import { tagKey, type Contact, type CustomFieldValue } from '#shared/records/contact';

const indexForms = (tags: string[] | undefined) => [...new Set((tags ?? []).map(tagKey))];

async function idsWithAnyTag(ws: string, tags: string[]): Promise<Set<string>> {
  return new Set((await Promise.all(tags.map((tag) => taggedContactIds(ws, tag)))).flat());
}

async function idsWithEveryTag(ws: string, tags: string[]): Promise<Set<string>> {
  const [first, ...rest] = await Promise.all(tags.map(async (tag) => new Set(await taggedContactIds(ws, tag))));
  return new Set([...first].filter((id) => rest.every((ids) => ids.has(id))));
}

/**
 * The ids a tag query narrows the segment to, or undefined when it gives no tag. Each tag is one
 * query of the tag index, never a read of the contact book.
 */
async function taggedCandidates(ws: string, segment: Segment): Promise<Set<string> | undefined> {
  const anyTags = indexForms(segment.tags_any);
  const allTags = indexForms(segment.tags_all);
  if (!anyTags.length && !allTags.length) return undefined;
  const [any, all] = await Promise.all([anyTags.length ? idsWithAnyTag(ws, anyTags) : undefined, allTags.length ? idsWithEveryTag(ws, allTags) : undefined]);
  if (!any) return all;
  if (!all) return any;
  return new Set([...any].filter((id) => all.has(id)));
}

const hasFields = (contact: Contact, fields: [string, CustomFieldValue][]) => fields.every(([name, value]) => contact.custom_fields[name] === value);

/**
 * The contacts the segment selects, oldest first (ids are UUIDv7): with tags, the tag queries'
 * candidates read by key and filtered on the custom fields; with custom fields only, the contact
 * book read through a filter. A segment without either selects nobody (it only excludes).
 */
export async function segmentMembers(ws: string, segment: Segment): Promise<Contact[]> {
  const fields = Object.entries(segment.custom_fields ?? {});
  // Any of some tags (the usual segment): each tag's contacts are read as its index pages arrive.
  if (segment.tags_any?.length && !segment.tags_all?.length) {
    const seen = new Set<string>();
    const members = (await Promise.all(indexForms(segment.tags_any).map((tag) => taggedContacts(ws, tag, seen)))).flat();
    return members.sort((a, b) => (a.id < b.id ? -1 : 1)).filter((contact) => hasFields(contact, fields));
  }
  const candidates = await taggedCandidates(ws, segment);
  if (candidates) return (await contactsByIds(ws, [...candidates].sort())).filter((contact) => hasFields(contact, fields));
  if (!fields.length) return [];
  return (await contactsWithCustomFields(ws, segment.custom_fields!)).reverse();
}

/** The ids of the contacts whose numbers `exclude_tags` removes from every source. */
export async function excludedContactIds(ws: string, segment: Segment | undefined): Promise<Set<string>> {
  return idsWithAnyTag(ws, indexForms(segment?.exclude_tags));
}

/**
 * At most how many contacts resolving the segment reads, from the list counters alone (one read
 * per tag): with tags, no more than the smallest `tags_all` count nor the `tags_any` counts'
 * sum; with custom fields alone, the whole contact book.
 */
export async function segmentReadBound(ws: string, segment: Segment): Promise<number> {
  const anyTags = indexForms(segment.tags_any);
  const allTags = indexForms(segment.tags_all);
  const count = (tag: string) => readListCount(ws, counterNames.tag(tag));
  if (anyTags.length || allTags.length) {
    const [any, all] = await Promise.all([Promise.all(anyTags.map(count)), Promise.all(allTags.map(count))]);
    return Math.min(...(any.length ? [any.reduce((sum, n) => sum + n, 0)] : []), ...all);
  }
  return Object.keys(segment.custom_fields ?? {}).length ? readListCount(ws, counterNames.contacts) : 0;
}
