/** A WhatsApp group a business number runs through the platform's Groups API (contract §23); not the contact groups of §7. */
export const CHAT_GROUP_STATUSES = ['creating', 'active', 'failed', 'deleted'] as const;
export type ChatGroupStatus = (typeof CHAT_GROUP_STATUSES)[number];

export const JOIN_APPROVAL_MODES = ['auto_approve', 'approval_required'] as const;
export type JoinApprovalMode = (typeof JOIN_APPROVAL_MODES)[number];

/** The platform's limits (docs/platform-groups.md §0), checked before it is called. */
export const CHAT_GROUP_LIMITS = { participants: 8, groupsPerNumber: 10_000, subject: 128, description: 2048 } as const;

/** A customer in the group, as the platform names them: a number, a business-scoped user id, or both. */
export interface ChatGroupParticipant {
  wa_id: string | null;
  user_id: string | null;
  username: string | null;
  joined_at: string;
}

/** A customer who opened the invite link of a group that needs the business's approval. */
export interface JoinRequest {
  id: string;
  wa_id: string | null;
  user_id: string | null;
  requested_at: string;
}

export interface ChatGroup {
  id: string;
  workspace_id: string;
  business_number_id: string;
  subject: string;
  description: string | null;
  join_approval_mode: JoinApprovalMode;
  status: ChatGroupStatus;
  /** Set by the platform's `group_suspend`, cleared by `group_suspend_cleared`; a suspended group takes no messages. */
  suspended: boolean;
  /** The platform's group id: known once its `group_lifecycle_update` reports the creation. */
  platform_group_id: string | null;
  /** The platform's id of the creation request, which its lifecycle webhook names (null until the platform answered it). */
  request_id: string | null;
  invite_link: string | null;
  participants: ChatGroupParticipant[];
  join_requests: JoinRequest[];
  /** Why the platform refused to create or delete it, as it said. */
  error: { code: number; message: string } | null;
  created_at: string;
  updated_at: string;
}

/** The participant a platform report names, by number or user id. */
export const sameParticipant = (a: { wa_id: string | null; user_id: string | null }, b: { wa_id: string | null; user_id: string | null }) =>
  Boolean((a.wa_id && a.wa_id === b.wa_id) || (a.user_id && a.user_id === b.user_id));
