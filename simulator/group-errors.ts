import { GraphError } from '#simulator/graph-error';
import type { StatusError } from '#simulator/whatsapp-errors';

/**
 * The Groups API's refusals, as Graph errors (`message` `(#<code>) <title>`, `error_data.details`
 * the description), with the codes, titles, descriptions and HTTP statuses of Meta's "Groups API
 * Error Codes and Troubleshooting" table (docs/platform-groups.md §5).
 */
const groupError = (status: number, code: number, title: string, details: string): GraphError =>
  new GraphError(status, code, 'OAuthException', `(#${code}) ${title}`, undefined, { messaging_product: 'whatsapp', details });

export const groupErrors = {
  /** 131041: no such group, a deleted one, or one of another business ("… or you are not a member"). */
  unknown: () => groupError(400, 131041, 'Group unknown', "The group was not found, either because it doesn't exist or you are not a member."),
  /** 131207 (HTTP 403): a suspended group takes no messages (§3.4). */
  suspended: () => groupError(403, 131207, 'Group suspended', 'The group violates platform policies.'),
  /** 131059: a paging cursor that names nothing. */
  invalidCursor: () =>
    groupError(400, 131059, 'Invalid cursor', 'The cursor has either expired or become corrupted. Start pagination from the beginning again.'),
  /** 131202: the same participant twice in one request. */
  duplicateParticipant: () => groupError(400, 131202, 'Duplicate participant', 'Duplicate participants in the participant array input.'),
  /** 131204: the group already has its 8 participants. */
  participantOverlimit: () => groupError(400, 131204, 'Participant overlimit', 'Group participant size exceeds limit.'),
  /** 131212: not one of the named users is in the group. */
  notParticipant: () => groupError(400, 131212, 'Participant is not a part of the group.', 'Participant is not a part of the group.'),
  /** 131213: not one of the named join requests is open. */
  joinRequestMissing: () => groupError(400, 131213, 'Group join request does not exist.', 'Group join request does not exist.'),
};

/** An error inside a group webhook item or a per-item answer: `{ code, message, title, error_data?: { details } }`. */
export interface GroupItemError {
  code: number;
  message: string;
  title: string;
  error_data?: { details: string };
}

/** The per-item errors, each as the source named beside it shows it. */
export const groupItemErrors = {
  /** `group_create` failed (MWRS `groups.webhooks__group_create_fail.json`). */
  createLimit: (): GroupItemError => ({
    code: 131211,
    message: 'Reached the limit for the maximum number of groups that can be created for this number.',
    title: 'Group create limit reached',
    error_data: { details: 'Reached the limit for the maximum number of groups that can be created for this number.' },
  }),
  /** A participant that could not be removed (MWRS `groups.webhooks__group_participant_remove_partially_fails.json`). */
  notParticipant: (): GroupItemError => ({
    code: 131212,
    message: 'Participant is not a part of the group.',
    title: 'Participant is not a part of the group.',
    error_data: { details: 'Participant is not a part of the group.' },
  }),
  /** The item-level summary of a partly failed removal (same fixture). */
  removePartial: (): GroupItemError => ({
    code: 131201,
    message: 'Failed to remove some participants from the group',
    title: 'Not All Participants Remove Succeeded',
    error_data: { details: 'Not all participant-level operations in the request succeeded.' },
  }),
  /** The answer-level summary of a partial success (HTTP 206; the approve answer of §1.7). */
  requestPartial: (): GroupItemError => ({ code: 131201, message: 'Request partially succeeded', title: 'Request partially succeeded' }),
  /** A join request that is not open, in `failed_join_requests` (shaped as §1.7's 131203 entry). */
  joinRequestMissing: (): GroupItemError => ({
    code: 131213,
    message: '(#131213) Group join request does not exist.',
    title: 'Group join request does not exist.',
    error_data: { details: 'Group join request does not exist.' },
  }),
  /** A join request the full group cannot take, in `failed_join_requests`. */
  participantOverlimit: (): GroupItemError => ({
    code: 131204,
    message: '(#131204) Group participant size exceeds limit.',
    title: 'Participant overlimit',
    error_data: { details: 'Group participant size exceeds limit.' },
  }),
};

/** The `failed` status of a message to a group nobody but the business is in (MWRS `groups.groups-messaging__group_message_failed.json`). */
export const badGroup = (): StatusError => ({
  code: 131020,
  title: 'Bad Group',
  message: 'Cannot send messages to single member groups.',
  error_data: { details: 'Cannot send messages to single member groups.' },
  href: '/documentation/business-messaging/whatsapp/support/error-codes',
});
