import { groupItemErrors } from '#simulator/group-errors';
import { inviteLinkOf, type CreationRequest, type GroupUser, type JoinRequest, type SimulatedGroup } from '#simulator/groups';
import { numberWebhook, unixSeconds, type BusinessNumber } from '#simulator/webhook-payloads';

/**
 * The Groups API's webhooks (docs/platform-groups.md §3): one envelope for the four fields,
 * `value.groups[]` holding one item with `timestamp`, `group_id` and `type`. Each item is shaped as
 * the example of Meta's current docs named beside it (the MWRS fixtures), key order and the type of
 * `timestamp` included: a string on the groups webhooks page, an integer on the business-scoped
 * user ids page.
 */
export type GroupField = 'group_lifecycle_update' | 'group_participants_update' | 'group_settings_update' | 'group_status_update';

type Item = Record<string, unknown>;

export interface GroupWebhook {
  object: 'whatsapp_business_account';
  entry: {
    id: string;
    changes: {
      value: { messaging_product: 'whatsapp'; metadata: { display_phone_number: string; phone_number_id: string }; groups: Item[] };
      field: GroupField;
    }[];
  }[];
}

/** The envelope: entry id the business account, `metadata` the number, `value` before `field` (as every MWRS group fixture). */
export const groupWebhook = (number: BusinessNumber, field: GroupField, item: Item): GroupWebhook =>
  numberWebhook(number, field, { groups: [item] }) as GroupWebhook;

const integerNow = (): number => Math.floor(Date.now() / 1000);

/** A customer as participant webhooks name them: `wa_id`, then the business-scoped ids when known. */
const identity = (user: GroupUser): Item => ({
  wa_id: user.wa_id,
  ...(user.user_id !== undefined && { user_id: user.user_id }),
  ...(user.parent_user_id !== undefined && { parent_user_id: user.parent_user_id }),
  ...(user.username !== undefined && { username: user.username }),
});

export const groupItems = {
  /** `group_create` succeeded (`groups.webhooks__group_create_succeed.json`; `description` only when the group has one). */
  created: (group: SimulatedGroup, requestId: string): Item => ({
    timestamp: unixSeconds(),
    group_id: group.id,
    type: 'group_create',
    request_id: requestId,
    subject: group.subject,
    ...(group.description !== undefined && { description: group.description }),
    invite_link: inviteLinkOf(group),
    join_approval_mode: group.join_approval_mode,
  }),
  /** `group_create` failed (`groups.webhooks__group_create_fail.json`: a group id is given all the same). */
  createFailed: (creation: CreationRequest, groupId: string): Item => ({
    timestamp: unixSeconds(),
    type: 'group_create',
    subject: creation.subject,
    ...(creation.description !== undefined && { description: creation.description }),
    request_id: creation.requestId,
    group_id: groupId,
    errors: [groupItemErrors.createLimit()],
  }),
  /** `group_delete` (`groups.webhooks__delete_group_succeed.json`). */
  deleted: (group: SimulatedGroup, requestId: string): Item => ({ timestamp: unixSeconds(), group_id: group.id, type: 'group_delete', request_id: requestId }),
  /** Joined through the invite link (`business-scoped-user-ids__group_participants_update_invite_link_join.json`). */
  joined: (group: SimulatedGroup, user: GroupUser): Item => ({
    timestamp: integerNow(),
    group_id: group.id,
    type: 'group_participants_add',
    reason: 'invite_link',
    added_participants: [identity(user)],
  }),
  /** Join requests approved (`groups.webhooks__join_request_approved.json`: `input` and `wa_id`). */
  approved: (group: SimulatedGroup, users: GroupUser[]): Item => ({
    timestamp: integerNow(),
    group_id: group.id,
    type: 'group_participants_add',
    reason: 'invite_link',
    added_participants: users.map((user) => ({ input: user.wa_id, wa_id: user.wa_id })),
  }),
  /** A join request opened or withdrawn (`business-scoped-user-ids__group_participants_update_join_request_{created,revoked}.json`). */
  joinRequest: (group: SimulatedGroup, request: JoinRequest, type: 'group_join_request_created' | 'group_join_request_revoked'): Item => ({
    timestamp: integerNow(),
    group_id: group.id,
    type,
    join_request_id: request.join_request_id,
    ...identity(request),
  }),
  /**
   * The business removed participants, each named by the request's `user` / `user_id` as `input`
   * (`groups.webhooks__group_participant_remove_succeed.json`); with some not in the group, the
   * partial failure of `groups.webhooks__group_participant_remove_partially_fails.json`.
   */
  removed: (group: SimulatedGroup, requestId: string, removed: string[], failed: string[]): Item =>
    failed.length === 0
      ? {
          timestamp: unixSeconds(),
          group_id: group.id,
          type: 'group_participants_remove',
          request_id: requestId,
          removed_participants: removed.map((input) => ({ input })),
          initiated_by: 'business',
        }
      : {
          timestamp: unixSeconds(),
          group_id: group.id,
          type: 'group_participants_remove',
          request_id: requestId,
          initiated_by: 'business',
          removed_participants: removed.map((input) => ({ input })),
          failed_participants: failed.map((input) => ({ input, errors: [groupItemErrors.notParticipant()] })),
          errors: [groupItemErrors.removePartial()],
        },
  /** A participant left (`groups.webhooks__group_participant_leaves.json`; business-scoped ids when known, as the BSUID page adds them). */
  left: (group: SimulatedGroup, user: GroupUser): Item => ({
    timestamp: unixSeconds(),
    group_id: group.id,
    type: 'group_participants_remove',
    removed_participants: [identity(user)],
    initiated_by: 'participant',
  }),
  /** Subject and/or description changed (`groups.webhooks__group_settings_update_succeed.json`, the fields changed only). */
  settings: (group: SimulatedGroup, requestId: string, changed: { subject?: string; description?: string }): Item => ({
    timestamp: unixSeconds(),
    group_id: group.id,
    type: 'group_settings_update',
    request_id: requestId,
    ...(changed.subject !== undefined && { group_subject: { text: changed.subject, update_successful: true } }),
    ...(changed.description !== undefined && { group_description: { text: changed.description, update_successful: true } }),
  }),
  /** Suspended or cleared (`groups.webhooks__group_suspended.json`, `…__group_suspension_cleared.json`). */
  status: (group: SimulatedGroup): Item => ({
    timestamp: unixSeconds(),
    type: group.suspended ? 'group_suspend' : 'group_suspend_cleared',
    group_id: group.id,
  }),
};
