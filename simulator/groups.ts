import { randomInt, randomUUID } from 'node:crypto';
import { displayPhoneNumber, randomDigits } from '#simulator/ids';

/**
 * The groups the simulator keeps, per business number, as Meta's Groups API describes them
 * (docs/platform-groups.md §0, §1): created asynchronously from a request id, joined only through
 * the invite link, at most 8 participants besides the business, at most 10,000 live groups a number.
 */
export const JOIN_APPROVAL_MODES = ['auto_approve', 'approval_required'] as const;
export type JoinApprovalMode = (typeof JOIN_APPROVAL_MODES)[number];

export const GROUP_LIMITS = {
  /** "Max groups you can create: 10,000 per business number" (§0). */
  groupsPerNumber: 10_000,
  /** "Max group participants: 8", the business not counted (§0, §1.3). */
  participants: 8,
  subject: 128,
  description: 2048,
  /** Participants one remove request may name: "Maximum 8 participants. The array cannot be empty." (§1A). */
  participantsPerRequest: 8,
} as const;

/** A customer as the group knows them: `wa_id`, and the business-scoped ids when a test gave them. */
export interface GroupUser {
  wa_id: string;
  name: string;
  user_id?: string;
  parent_user_id?: string;
  username?: string;
}

export interface JoinRequest extends GroupUser {
  join_request_id: string;
  /** Unix seconds (an integer, as the reference types it). */
  creation_timestamp: number;
}

export interface GroupSettings {
  subject: string;
  description?: string;
  join_approval_mode: JoinApprovalMode;
}

/** A `POST /{phone_number_id}/groups` the platform accepted and has not completed yet. */
export interface CreationRequest extends GroupSettings {
  requestId: string;
  phoneNumberId: string;
}

export interface SimulatedGroup extends GroupSettings {
  id: string;
  phoneNumberId: string;
  /** The code after `https://chat.whatsapp.com/`; a reset replaces it and the old one stops working. */
  inviteCode: string;
  /** The customers in the group by `wa_id`, in joining order; the business is not one of them. */
  participants: Map<string, GroupUser>;
  /** Open join requests by id (groups with `approval_required`). */
  joinRequests: Map<string, JoinRequest>;
  /** Removed by the business: they can no longer join through the invite link (§1.8). */
  removed: Set<string>;
  suspended: boolean;
  deleted: boolean;
  /** Unix seconds. */
  createdAt: number;
}

export const INVITE_LINK_PREFIX = 'https://chat.whatsapp.com/';
export const inviteLinkOf = (group: SimulatedGroup): string => `${INVITE_LINK_PREFIX}${group.inviteCode}`;

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** An invite code like Meta's `BjCg8D2zYrE7kS1uFp0xQa` (22 letters and digits). */
const newInviteCode = (): string => Array.from({ length: 22 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** Graph's opaque ids end their base64 with `ZD` in place of each `=` (Meta's `…MjAZD`). */
const opaque = (text: string): string => Buffer.from(text).toString('base64').replace(/=/g, 'ZD');

/**
 * A group id shaped like Meta's `Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAzNjM0MDQ2OTQyMzM4MjAZD`:
 * `capi_group:<business number>:<group jid>` in base64 (docs/platform-groups.md §2, decoded).
 */
export const newGroupId = (phoneNumberId: string): string => opaque(`capi_group:${displayPhoneNumber(phoneNumberId)}:120363${randomDigits(12)}`);

/** Whether an id is shaped like a group id (`capi_group:` in base64), known or not. */
export const looksLikeGroupId = (id: string): boolean => id.startsWith('Y2FwaV9ncm91cDo');

/** The group's jid, from its id (the last part of the decoded id). */
const jidOf = (groupId: string): string => Buffer.from(groupId.replace(/ZD/g, '='), 'base64').toString('latin1').split(':')[2] ?? groupId;

/** A join request id like Meta's `MTY0NjcwNDM1OTU6MTIwMzYzNDA0Njk0MjMzODIw`: base64 of `<wa_id>:<group jid>`. */
const joinRequestId = (groupId: string, waId: string): string => Buffer.from(`${waId}:${jidOf(groupId)}`).toString('base64');

export type JoinOutcome =
  | { kind: 'joined'; user: GroupUser }
  | { kind: 'requested'; request: JoinRequest }
  | { kind: 'refused'; why: 'member' | 'pending' | 'removed' | 'full' | 'stale_link' };

export class Groups {
  private readonly groups = new Map<string, SimulatedGroup>();
  /** Live (created, not deleted) groups per number, for the 10,000 limit. */
  private readonly liveCount = new Map<string, number>();
  private holding = false;
  private held: CreationRequest[] = [];

  /** A creation request with a fresh request id (Meta's answer to `POST /{phone_number_id}/groups`). */
  request(phoneNumberId: string, settings: GroupSettings): CreationRequest {
    return { requestId: randomUUID(), phoneNumberId, ...settings };
  }

  get holdsCreation(): boolean {
    return this.holding;
  }

  /** Keeps the request back while creation is held (`POST /_simulate/groups/hold-creation`); false when it was not. */
  park(creation: CreationRequest): boolean {
    if (!this.holding) return false;
    this.held.push(creation);
    return true;
  }

  /** Holds creation, or stops holding it: then the held requests are handed back, oldest first, to be completed. */
  hold(on: boolean): CreationRequest[] {
    this.holding = on;
    if (on) return [];
    const released = this.held;
    this.held = [];
    return released;
  }

  /** Creation requests being held, oldest first. */
  heldRequests(): readonly CreationRequest[] {
    return this.held;
  }

  /**
   * Completes a creation request: the new group, or `full` when the number already has its 10,000
   * live groups (the platform then fails the request in its webhook, 131211).
   */
  complete(creation: CreationRequest): { group: SimulatedGroup } | { full: true } {
    const live = this.liveCount.get(creation.phoneNumberId) ?? 0;
    if (live >= GROUP_LIMITS.groupsPerNumber) return { full: true };
    const group: SimulatedGroup = {
      id: newGroupId(creation.phoneNumberId),
      phoneNumberId: creation.phoneNumberId,
      subject: creation.subject,
      ...(creation.description !== undefined && { description: creation.description }),
      join_approval_mode: creation.join_approval_mode,
      inviteCode: newInviteCode(),
      participants: new Map(),
      joinRequests: new Map(),
      removed: new Set(),
      suspended: false,
      deleted: false,
      createdAt: Math.floor(Date.now() / 1000),
    };
    this.groups.set(group.id, group);
    this.liveCount.set(group.phoneNumberId, live + 1);
    return { group };
  }

  /** Any group the simulator created, deleted ones included. */
  get(id: string): SimulatedGroup | undefined {
    return this.groups.get(id);
  }

  /** A number's groups that are not deleted (suspended ones included), oldest first. */
  live(phoneNumberId: string): SimulatedGroup[] {
    return [...this.groups.values()].filter((g) => g.phoneNumberId === phoneNumberId && !g.deleted);
  }

  /** Every group of a number (or of every number), deleted ones included, oldest first. */
  of(phoneNumberId?: string): SimulatedGroup[] {
    return [...this.groups.values()].filter((g) => phoneNumberId === undefined || g.phoneNumberId === phoneNumberId);
  }

  /** Deletes a group: every participant leaves, open requests lapse, the link stops working. */
  delete(group: SimulatedGroup): void {
    if (!group.deleted) this.liveCount.set(group.phoneNumberId, (this.liveCount.get(group.phoneNumberId) ?? 1) - 1);
    group.deleted = true;
    group.participants.clear();
    group.joinRequests.clear();
  }

  resetInviteLink(group: SimulatedGroup): string {
    group.inviteCode = newInviteCode();
    return inviteLinkOf(group);
  }

  /**
   * A customer opens the invite link (`inviteLink`, else the current one): with `auto_approve` they
   * join, with `approval_required` a join request is opened. Refused: a member or a customer with an
   * open request, one the business removed, a full group (auto-approve), a link that was reset.
   */
  join(group: SimulatedGroup, user: GroupUser, inviteLink?: string): JoinOutcome {
    if (inviteLink !== undefined && inviteLink !== inviteLinkOf(group)) return { kind: 'refused', why: 'stale_link' };
    if (group.participants.has(user.wa_id)) return { kind: 'refused', why: 'member' };
    if (group.removed.has(user.wa_id)) return { kind: 'refused', why: 'removed' };
    if ([...group.joinRequests.values()].some((r) => r.wa_id === user.wa_id)) return { kind: 'refused', why: 'pending' };
    if (group.join_approval_mode === 'approval_required') {
      const request: JoinRequest = { join_request_id: joinRequestId(group.id, user.wa_id), ...user, creation_timestamp: Math.floor(Date.now() / 1000) };
      group.joinRequests.set(request.join_request_id, request);
      return { kind: 'requested', request };
    }
    if (group.participants.size >= GROUP_LIMITS.participants) return { kind: 'refused', why: 'full' };
    group.participants.set(user.wa_id, user);
    return { kind: 'joined', user };
  }

  /** Approves one open join request: the participant, or why not (131213 no such request, 131204 the group is full). */
  approve(group: SimulatedGroup, joinRequestId: string): GroupUser | 'missing' | 'full' {
    const request = group.joinRequests.get(joinRequestId);
    if (!request) return 'missing';
    if (group.participants.size >= GROUP_LIMITS.participants) return 'full';
    group.joinRequests.delete(joinRequestId);
    const { join_request_id: _id, creation_timestamp: _at, ...user } = request;
    group.participants.set(user.wa_id, user);
    return user;
  }

  /** Rejects (or the customer withdraws) one open join request: the request, or undefined when there is none. */
  dropRequest(group: SimulatedGroup, joinRequestId: string): JoinRequest | undefined {
    const request = group.joinRequests.get(joinRequestId);
    group.joinRequests.delete(joinRequestId);
    return request;
  }

  /** The participant a remove request names: `user` (a phone number, compared by digits) or `user_id`. */
  findParticipant(group: SimulatedGroup, by: { user?: string; user_id?: string }): GroupUser | undefined {
    const digits = by.user?.replace(/\D/g, '');
    return [...group.participants.values()].find((p) => (digits ? p.wa_id === digits : p.user_id !== undefined && p.user_id === by.user_id));
  }

  /** Takes a participant out: `byBusiness` also bars them from the invite link. */
  removeParticipant(group: SimulatedGroup, waId: string, byBusiness: boolean): void {
    group.participants.delete(waId);
    if (byBusiness) group.removed.add(waId);
  }
}
