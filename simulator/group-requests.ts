import { groupErrors } from '#simulator/group-errors';
import { GROUP_LIMITS, JOIN_APPROVAL_MODES, type GroupSettings, type JoinApprovalMode } from '#simulator/groups';
import type { RouteContext } from '#simulator/http';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/**
 * The bodies of the Groups API's requests, checked as Meta's reference states them
 * (docs/platform-groups.md §0, §1, §1A); a missing or malformed field is Graph's 100.
 */
type Json = Record<string, unknown>;
const invalid = whatsappErrors.invalidParameter;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object carrying `messaging_product: "whatsapp"`, as every Groups API body does. */
export async function groupBody(ctx: RouteContext): Promise<Json> {
  const body = await ctx.readJson();
  if (!isObject(body)) throw invalid('The request body must be a JSON object.');
  if (body.messaging_product === undefined) throw invalid('The parameter messaging_product is required.');
  if (body.messaging_product !== 'whatsapp') throw invalid('Param messaging_product must be "whatsapp".');
  return body;
}

/** A simulator control's body: a JSON object (empty when none was sent). */
export async function controlBody(ctx: RouteContext): Promise<Json> {
  const body = (await ctx.readJson()) ?? {};
  if (!isObject(body)) throw invalid('The body must be a JSON object.');
  return body;
}

/** "Maximum 128 characters. Whitespace is trimmed." / "Must not be empty if provided." */
function subjectOf(value: unknown): string {
  if (typeof value !== 'string') throw invalid('Param subject must be a string.');
  const subject = value.trim();
  if (!subject) throw invalid('Param subject must not be empty.');
  if ([...subject].length > GROUP_LIMITS.subject) throw invalid(`Param subject must be at most ${GROUP_LIMITS.subject} characters long.`);
  return subject;
}

/** "Maximum 2048 characters." */
function descriptionOf(value: unknown): string {
  if (typeof value !== 'string') throw invalid('Param description must be a string.');
  if ([...value].length > GROUP_LIMITS.description) throw invalid(`Param description must be at most ${GROUP_LIMITS.description} characters long.`);
  return value;
}

/** `POST /{phone_number_id}/groups`: `subject` required, `description` optional, `join_approval_mode` `auto_approve` when left out. */
export function creationSettings(body: Json): GroupSettings {
  if (body.subject === undefined) throw invalid('The parameter subject is required.');
  const mode = body.join_approval_mode ?? 'auto_approve';
  if (!JOIN_APPROVAL_MODES.includes(mode as JoinApprovalMode)) throw invalid(`Param join_approval_mode must be one of {${JOIN_APPROVAL_MODES.join(', ')}}.`);
  return {
    subject: subjectOf(body.subject),
    ...(body.description !== undefined && { description: descriptionOf(body.description) }),
    join_approval_mode: mode as JoinApprovalMode,
  };
}

/** `POST /{group_id}`: a new `subject` and/or `description` (the picture, a multipart upload, is not simulated). */
export function settingsUpdate(body: Json): { subject?: string; description?: string } {
  if (body.subject === undefined && body.description === undefined) throw invalid('At least one of subject and description is required.');
  return {
    ...(body.subject !== undefined && { subject: subjectOf(body.subject) }),
    ...(body.description !== undefined && { description: descriptionOf(body.description) }),
  };
}

/** `{ join_requests: [id, …] }` of approve and reject: a non-empty list of ids, each taken once. */
export function joinRequestIds(body: Json): string[] {
  const ids = body.join_requests;
  if (!Array.isArray(ids) || ids.length === 0) throw invalid('The parameter join_requests is required and must be a non-empty array.');
  if (ids.some((id) => typeof id !== 'string' || !id)) throw invalid('Param join_requests must hold join request ids (strings).');
  return [...new Set(ids as string[])];
}

/** One participant of a remove request, named by `user` (phone number) or `user_id` (business-scoped user id), as given. */
export interface NamedParticipant {
  user?: string;
  user_id?: string;
  /** What the request gave, as the webhook's `input` repeats it. */
  input: string;
}

/** `{ participants: [{ user } | { user_id }, …] }`: 1 to 8 entries, each naming one user by one of the two, no one twice (131202). */
export function participantsToRemove(body: Json): NamedParticipant[] {
  const list = body.participants;
  const max = GROUP_LIMITS.participantsPerRequest;
  if (!Array.isArray(list) || list.length === 0) throw invalid('The parameter participants is required and must be a non-empty array.');
  if (list.length > max) throw invalid(`Param participants must have at most ${max} entries.`);
  const named = list.map((entry, i): NamedParticipant => {
    if (!isObject(entry) || (entry.user === undefined) === (entry.user_id === undefined))
      throw invalid(`Param participants[${i}] must name the user by exactly one of user and user_id.`);
    const value = entry.user ?? entry.user_id;
    if (typeof value !== 'string' || !value) throw invalid(`Param participants[${i}] must be a non-empty string.`);
    if (entry.user !== undefined && !/^\+?[\d\s().-]{5,}$/.test(value)) throw invalid(`Param participants[${i}]['user'] must be a phone number.`);
    return entry.user !== undefined ? { user: value, input: value } : { user_id: value, input: value };
  });
  const keys = named.map((p) => (p.user !== undefined ? `u:${p.user.replace(/\D/g, '')}` : `id:${p.user_id}`));
  if (new Set(keys).size !== keys.length) throw groupErrors.duplicateParticipant();
  return named;
}
