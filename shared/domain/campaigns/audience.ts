import { contactsByIds } from '#shared/data/contact';
import { phoneOwners, type PhoneOwner } from '#shared/data/contact-claims';
import { allMemberIds, groupsAmong } from '#shared/data/group';
import type { Contact } from '#shared/records/contact';
import { DomainError, errors, type ErrorDetail } from '#shared/errors';
import { fillMacros, prepareTemplate } from '#shared/domain/templates/parameters';
import type { ButtonInput, HeaderInput, TemplateInput, Variables } from '#shared/records/template-parameters';
import type { Template } from '#shared/records/template';
import { excludedContactIds, segmentMembers } from '#shared/domain/campaigns/segment';
import type { Recipient, Segment, SendWindow } from '#shared/records/campaign';
import { recipientZone } from '#shared/domain/campaigns/send-window';
import { closedMarketError } from '#shared/domain/messages/markets';
import { recipientOfKey } from '#shared/domain/messages/recipient';
import { env } from '#shared/config';

export interface LaunchAudience {
  recipients?: { phone: string; name?: string; variables?: Variables; header?: HeaderInput; buttons?: ButtonInput[] }[];
  contact_ids?: string[];
  group_ids?: string[];
  segment?: Segment;
  template_variables?: Variables;
  template_header?: HeaderInput;
  template_buttons?: ButtonInput[];
  send_window?: SendWindow;
}

/** The recipients, and how many of them marketing cannot reach (their messages are created `failed`, never sent). */
export interface ResolvedAudience {
  recipients: Recipient[];
  optedOut: number;
  /** The numbers of those that opted out (a MARKETING template's): never sent, never charged. */
  optedOutPhones: Set<string>;
  /** How many are not opted out but in a market closed to marketing (contract §21), and their numbers: never sent, never charged. */
  closedMarket: number;
  closedMarketPhones: Set<string>;
  /** The first recipient's template values as given, macros unfilled (contract §15 test sends). */
  firstInput: TemplateInput;
}

/** Problems reported for one launch at most: enough to fix a file, small enough to answer. */
const MAX_DETAILS = 100;

function missing(ids: string[], found: Set<string>, field: string): ErrorDetail[] {
  return ids.flatMap((id, i) =>
    found.has(id) ? [] : [{ field: `${field}.${i}`, message: `No ${field === 'group_ids' ? 'group' : 'contact'} ${id} in this workspace` }],
  );
}

/**
 * The launch's recipients, de-duplicated by phone with the first occurrence winning: direct
 * recipients, then contacts, then group members, then segment members (contract §8, §15), less
 * every number whose contact carries an `exclude_tags` tag. Unknown ids are 422
 * invalid_audience; parameters that do not fit the template, 422 template_variables_mismatch with
 * every recipient's problems (`recipients.N.…`, or `template_…` for the shared values); nobody
 * left, 422 empty_audience.
 */
export async function resolveAudience(
  ws: string,
  audience: LaunchAudience,
  template: Template,
  options: { withZones?: boolean; allowEmpty?: boolean } = {},
): Promise<ResolvedAudience> {
  const withZones = options.withZones ?? false;
  const contactIds = [...new Set(audience.contact_ids ?? [])];
  const groupIds = [...new Set(audience.group_ids ?? [])];
  const [contacts, groups, segmented, excluded] = await Promise.all([
    contactsByIds(ws, contactIds),
    groupsAmong(ws, groupIds),
    audience.segment ? segmentMembers(ws, audience.segment) : [],
    excludedContactIds(ws, audience.segment),
  ]);
  const unknown = [
    ...missing(contactIds, new Set(contacts.map((c) => c.id)), 'contact_ids'),
    ...missing(groupIds, new Set(groups.map((g) => g.id)), 'group_ids'),
  ];
  if (unknown.length) throw errors.refused('invalid_audience', 'The audience names records that do not exist', unknown);

  const members: Contact[] = [];
  for (const groupId of groupIds) members.push(...(await contactsByIds(ws, await allMemberIds(ws, groupId))));

  const marketing = template.category === 'MARKETING';
  const direct = audience.recipients ?? [];
  // A direct number's contact (for exclusion) and opt-out come from its phone claim, read only when needed.
  const owners =
    direct.length && (excluded.size || marketing || withZones)
      ? await phoneOwners(
          ws,
          direct.map((r) => r.phone),
        )
      : new Map<string, PhoneOwner>();
  // A send window is read in each contact's own zone (contract §15): direct numbers' contacts are read for it.
  const zoneOf = (contact: Contact) => (withZones ? recipientZone(contact.custom_fields) : undefined);
  const directZones = new Map(
    withZones && owners.size ? (await contactsByIds(ws, [...new Set([...owners.values()].map((o) => o.contact_id))])).map((c) => [c.id, zoneOf(c)]) : [],
  );

  const shared = sharedInput(audience);
  const own = (r: NonNullable<LaunchAudience['recipients']>[number]): TemplateInput => ({
    variables: r.variables ?? shared.variables,
    header: r.header ?? shared.header,
    buttons: r.buttons ?? shared.buttons,
  });
  const candidates = [
    ...direct.map((r, i) => {
      const owner = owners.get(r.phone);
      return { phone: r.phone, name: r.name ?? null, input: own(r), field: `recipients.${i}.`, owner, zone: owner && directZones.get(owner.contact_id) };
    }),
    // A contact known only by a platform user id is sent to by that id (contract §21): its key is the id.
    ...[...contacts, ...members, ...segmented]
      .filter((c) => c.phone_number || c.user_id)
      .map((c) => ({
        phone: c.phone_number || c.user_id!,
        name: c.name,
        input: shared,
        field: 'template_',
        owner: { contact_id: c.id, opted_out_at: c.opted_out_at },
        zone: zoneOf(c),
      })),
  ];
  const excludedPhones = new Set(candidates.filter((c) => c.owner && excluded.has(c.owner.contact_id)).map((c) => c.phone));
  const seen = new Set<string>();
  const recipients: Recipient[] = [];
  let firstInput: TemplateInput = {};
  const optedOutPhones = new Set<string>();
  const closedMarketPhones = new Set<string>();
  const markets = marketing ? env.closedMarkets : [];
  const problems = new Map<string, ErrorDetail>();
  for (const candidate of candidates) {
    if (seen.has(candidate.phone) || excludedPhones.has(candidate.phone)) continue;
    seen.add(candidate.phone);
    try {
      const { parameters } = prepareTemplate(template, fillMacros(candidate.input, recipientOfKey(candidate.phone).phone, candidate.name), candidate.field);
      if (!recipients.length) firstInput = candidate.input;
      recipients.push({ p: candidate.phone, n: candidate.name, t: parameters, ...(candidate.zone && { z: candidate.zone }) });
      if (marketing && candidate.owner?.opted_out_at) optedOutPhones.add(candidate.phone);
      else if (marketing && closedMarketError('MARKETING', recipientOfKey(candidate.phone), markets)) closedMarketPhones.add(candidate.phone);
    } catch (error) {
      if (!(error instanceof DomainError) || !error.details) throw error;
      // Shared values fail the same way for every contact: each problem is reported once.
      for (const detail of error.details) if (problems.size < MAX_DETAILS) problems.set(`${detail.field}|${detail.message}`, detail);
    }
  }
  if (problems.size)
    throw errors.refused('template_variables_mismatch', `Recipients' parameters do not fit template ${template.name} (${template.language})`, [
      ...problems.values(),
    ]);
  if (!recipients.length && !options.allowEmpty) throw errors.refused('empty_audience', 'The audience resolves to no recipient');
  return { recipients, optedOut: optedOutPhones.size, optedOutPhones, closedMarket: closedMarketPhones.size, closedMarketPhones, firstInput };
}

/** The launch's shared values for contacts (macros unfilled): what segment members get. */
export const sharedInput = (audience: LaunchAudience): TemplateInput => ({
  variables: audience.template_variables,
  header: audience.template_header,
  buttons: audience.template_buttons,
});

/**
 * Refuses shared values that do not fit the template, as resolveAudience would for the first
 * contact, when no contact is resolved before the launch answers (a segment resolved later).
 */
export function checkSharedValues(template: Template, shared: TemplateInput): void {
  prepareTemplate(template, fillMacros(shared, '10000000000', 'Sample'), 'template_');
}

/**
 * A segment resolved after its launch answered (by the fan-out): its members' recipients, less
 * `skip` (the numbers of the launch's other sources) and the excluded numbers, each with the
 * shared values filled for it. A member whose values do not fit (a name too long for the
 * template, say) cannot be refused any more: it is left out and counted in `unfit`.
 */
export async function resolveSegmentLater(ws: string, segment: Segment, shared: TemplateInput, template: Template, withZones: boolean, skip: Set<string>) {
  const [members, excluded] = await Promise.all([segmentMembers(ws, segment), excludedContactIds(ws, segment)]);
  const recipients: Recipient[] = [];
  const seen = new Set(skip);
  let unfit = 0;
  for (const contact of members) {
    // The number, else the user id (contract §21), as at launch.
    const key = contact.phone_number || contact.user_id;
    if (!key || seen.has(key) || excluded.has(contact.id)) continue;
    seen.add(key);
    try {
      const { parameters } = prepareTemplate(template, fillMacros(shared, contact.phone_number, contact.name), 'template_');
      const zone = withZones ? recipientZone(contact.custom_fields) : undefined;
      recipients.push({ p: key, n: contact.name, t: parameters, ...(zone && { z: zone }) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      unfit++;
    }
  }
  return { recipients, unfit };
}

/** Recipients per fan-out job, and a size bound that keeps a chunk item far below DynamoDB's 400 KB. */
const CHUNK_RECIPIENTS = 500;
const CHUNK_BYTES = 300_000;

/** The recipients in the fan-out's chunks, in order. */
export function chunkRecipients(recipients: Recipient[]): Recipient[][] {
  const chunks: Recipient[][] = [];
  let current: Recipient[] = [];
  let bytes = 0;
  for (const recipient of recipients) {
    const size = Buffer.byteLength(JSON.stringify(recipient), 'utf8');
    if (current.length && (current.length === CHUNK_RECIPIENTS || bytes + size > CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(recipient);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
