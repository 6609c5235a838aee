import { GetCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { getMany } from '#shared/data/table/pages';
import { readSideBySide } from '#shared/data/table/coalesced-gets';
import { contactKey, phoneClaimKey, userClaimKey } from '#shared/data/contact';

/* Reads of a contact's phone and user claims: which contact holds a number or a platform user id, and its opt-out. */

export async function contactIdForPhone(ws: string, digits: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: phoneClaimKey(ws, digits), ConsistentRead: true }));
  return Item?.contact_id as string | undefined;
}

export async function contactIdForUser(ws: string, userId: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: userClaimKey(ws, userId), ConsistentRead: true }));
  return Item?.contact_id as string | undefined;
}

export interface PhoneOwner {
  contact_id: string;
  opted_out_at: string | null;
}

/** The contact holding each of these numbers and its opt-out, from their claims; numbers without a contact are absent. */
export async function phoneOwners(ws: string, phones: string[]): Promise<Map<string, PhoneOwner>> {
  const claims = (await readSideBySide([...new Set(phones)].map((digits) => phoneClaimKey(ws, digits)))) as {
    PK: string;
    contact_id: string;
    opted_out_at?: string | null;
  }[];
  const prefix = phoneClaimKey(ws, '').PK;
  return new Map(claims.map((claim) => [claim.PK.slice(prefix.length), { contact_id: claim.contact_id, opted_out_at: claim.opted_out_at ?? null }]));
}

/** Which of these numbers opted out of marketing (contract §13), from their claims. */
export async function optedOutPhones(ws: string, phones: string[]): Promise<Set<string>> {
  return new Set([...(await phoneOwners(ws, phones))].filter(([, owner]) => owner.opted_out_at).map(([phone]) => phone));
}

/** Which of these numbers already have a contact. */
export async function existingPhones(ws: string, phones: string[]): Promise<Set<string>> {
  const claims = await getMany<{ PK: string }>(phones.map((digits) => phoneClaimKey(ws, digits)));
  const prefix = phoneClaimKey(ws, '').PK;
  return new Set(claims.map((claim) => claim.PK.slice(prefix.length)));
}

/**
 * Which of these user ids opted out of marketing, from their claims. A claim without `opted_out_at`
 * (written before claims carried the opt-out, issue 26, or a contact's previous id) is read through
 * its contact; several such ids of one contact read it once.
 */
export async function optedOutUsers(ws: string, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const claims = await getMany<{ PK: string; contact_id: string; opted_out_at?: string | null }>([...new Set(userIds)].map((id) => userClaimKey(ws, id)));
  const prefix = userClaimKey(ws, '').PK;
  const older = claims.filter((claim) => claim.opted_out_at === undefined);
  const contactIds = [...new Set(older.map((claim) => claim.contact_id))];
  const contacts = contactIds.length ? await getMany<{ id: string; opted_out_at?: string | null }>(contactIds.map((id) => contactKey(ws, id))) : [];
  const optedOutContacts = new Set(contacts.filter((c) => c.opted_out_at).map((c) => c.id));
  return new Set(claims.filter((claim) => claim.opted_out_at || optedOutContacts.has(claim.contact_id)).map((claim) => claim.PK.slice(prefix.length)));
}
