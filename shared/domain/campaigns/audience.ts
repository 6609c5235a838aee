import { contactsByIds } from '#shared/data/contact';
import { allMemberIds, groupsAmong } from '#shared/data/group';
import type { Contact } from '#shared/domain/contacts/contact';
import { orderedVariables, type Variables } from '#shared/domain/messages/render';
import type { Template } from '#shared/domain/templates/template';
import { errors, type ErrorDetail } from '#shared/errors';

export interface LaunchAudience {
  recipients?: { phone: string; name?: string; variables?: Variables }[];
  contact_ids?: string[];
  group_ids?: string[];
  template_variables?: Variables;
}

/** One recipient as the fan-out needs it: phone, name and the final template parameters. */
export interface Recipient {
  p: string;
  n: string | null;
  v: string[];
}

/**
 * `{{name}}` and `{{phone}}` inside a variable value become the recipient's name and phone. A
 * recipient without a name gets the phone number: the platform refuses blank parameters. Names
 * are flattened to one line, as the platform requires.
 */
const fillMacros = (value: string, phone: string, name: string | null) => {
  const flatName = name?.replace(/\s+/g, ' ').trim() || phone;
  return value.replace(/\{\{\s*name\s*\}\}/g, flatName).replace(/\{\{\s*phone\s*\}\}/g, phone);
};

function missing(ids: string[], found: Set<string>, field: string): ErrorDetail[] {
  return ids.flatMap((id, i) => (found.has(id) ? [] : [{ field: `${field}.${i}`, message: `No ${field === 'group_ids' ? 'group' : 'contact'} ${id} in this workspace` }]));
}

/**
 * The launch's recipients, de-duplicated by phone with the first occurrence winning: direct
 * recipients, then contacts, then group members (contract §8). Unknown ids are 422
 * invalid_audience; a variable count that does not fit the template, 422 template_variables_mismatch.
 */
export async function resolveAudience(ws: string, audience: LaunchAudience, template: Template): Promise<Recipient[]> {
  const contactIds = [...new Set(audience.contact_ids ?? [])];
  const groupIds = [...new Set(audience.group_ids ?? [])];
  const [contacts, groups] = await Promise.all([
    contactsByIds(ws, contactIds),
    groupsAmong(ws, groupIds),
  ]);
  const unknown = [...missing(contactIds, new Set(contacts.map((c) => c.id)), 'contact_ids'), ...missing(groupIds, new Set(groups.map((g) => g.id)), 'group_ids')];
  if (unknown.length) throw errors.refused('invalid_audience', 'The audience names records that do not exist', unknown);

  const members: Contact[] = [];
  for (const groupId of groupIds) members.push(...(await contactsByIds(ws, await allMemberIds(ws, groupId))));

  const shared = audience.template_variables;
  const candidates = [
    ...(audience.recipients ?? []).map((r) => ({ phone: r.phone, name: r.name ?? null, variables: r.variables ?? shared })),
    ...[...contacts, ...members].map((c) => ({ phone: c.phone_number, name: c.name, variables: shared })),
  ];
  const seen = new Set<string>();
  const recipients: Recipient[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.phone)) continue;
    seen.add(candidate.phone);
    const values = orderedVariables(candidate.variables, template);
    recipients.push({ p: candidate.phone, n: candidate.name, v: values.map((value) => fillMacros(value, candidate.phone, candidate.name)) });
  }
  if (!recipients.length) throw errors.refused('empty_audience', 'The audience resolves to no recipient');
  return recipients;
}
