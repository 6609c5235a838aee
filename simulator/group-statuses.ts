import type { Faults } from '#simulator/faults';
import { badGroup } from '#simulator/group-errors';
import type { GroupUser } from '#simulator/groups';
import type { WebhookSender } from '#simulator/platform-webhooks';
import { statusSequence } from '#simulator/statuses';
import { envelope, unixSeconds, type BusinessNumber, type StatusName, type StatusPricing, type StatusReport } from '#simulator/webhook-payloads';
import { statusFailure } from '#simulator/whatsapp-errors';

/** A message a number sent to a group, whose status reports are to be sent. */
export interface AcceptedGroupMessage {
  number: BusinessNumber;
  wamid: string;
  groupId: string;
  /** The participants when it was sent (the business not among them). */
  participants: readonly GroupUser[];
  /** The template's category (`MARKETING`, `UTILITY`), or none for a non-template message. */
  templateCategory?: string;
  bizOpaqueCallbackData?: string;
  /** Set when the `fail_status` fault picked this send. */
  failCode?: number;
}

/**
 * How a group message is priced per participant it reaches (docs/platform-requests.md §9.3, the
 * status reference of Sep 2026): a template is `regular` in `group_marketing` / `group_utility`; a
 * non-template message `free_group_customer_service` in `group_service`.
 */
export function groupPricing(templateCategory?: string): StatusPricing {
  if (templateCategory) return { billable: true, pricing_model: 'PMP', type: 'regular', category: `group_${templateCategory.toLowerCase()}` };
  return { billable: false, pricing_model: 'PMP', type: 'free_group_customer_service', category: 'group_service' };
}

/** `sent` or `failed`: about the group as a whole (MWRS `groups.groups-messaging__group_message_{sent,failed}.json`, key order included). */
function groupStatus(message: AcceptedGroupMessage, status: StatusName, atMs: number): StatusReport {
  return {
    id: message.wamid,
    recipient_id: message.groupId,
    recipient_type: 'group',
    status,
    timestamp: unixSeconds(atMs),
    ...(message.bizOpaqueCallbackData !== undefined && { biz_opaque_callback_data: message.bizOpaqueCallbackData }),
    ...(status === 'failed' && { errors: [message.failCode !== undefined ? statusFailure(message.failCode) : badGroup()] }),
  };
}

/** `delivered` or `read` for one participant (MWRS `business-scoped-user-ids__status_messages_webhooks_for_groups.json`). */
function participantStatus(message: AcceptedGroupMessage, participant: GroupUser, status: StatusName, atMs: number, priced: boolean): StatusReport {
  return {
    id: message.wamid,
    status,
    timestamp: unixSeconds(atMs),
    recipient_id: message.groupId,
    recipient_type: 'group',
    recipient_participant_id: participant.wa_id,
    ...(participant.user_id !== undefined && { recipient_participant_user_id: participant.user_id }),
    ...(participant.parent_user_id !== undefined && { recipient_participant_parent_user_id: participant.parent_user_id }),
    ...(message.bizOpaqueCallbackData !== undefined && { biz_opaque_callback_data: message.bizOpaqueCallbackData }),
    ...(priced && { pricing: groupPricing(message.templateCategory) }),
  };
}

const contactOf = (participant: GroupUser) => ({
  profile: { name: participant.name, ...(participant.username !== undefined && { username: participant.username }) },
  wa_id: participant.wa_id,
  ...(participant.user_id !== undefined && { user_id: participant.user_id }),
  ...(participant.parent_user_id !== undefined && { parent_user_id: participant.parent_user_id }),
});

/**
 * Schedules a group message's status webhooks, `status_interval_ms` apart: `sent` about the group,
 * then one `delivered` webhook and one `read` webhook, each aggregating the statuses of every
 * participant it applies to (with `contacts[]` naming them), since "each webhook you receive is only
 * ever in reference to a single message sent to a single group and a single status type"
 * (docs/platform-groups.md §2.1, §1A). Pricing comes with each participant's first status. A
 * participant's number decides as for a 1:1 message (`…9999` never gets it, `…9998` never reads it).
 * A group nobody but the business is in gets `sent`, then `failed` with 131020 "Bad Group"; the
 * `fail_status` fault fails the message as a whole. `no_webhooks`, `skip_delivered` and
 * `duplicate_statuses` apply; `reorder_statuses` and `statuses_in_one_post` do not (the platform
 * never combines status types for a group message).
 */
export function scheduleGroupStatuses(webhooks: WebhookSender, faults: Faults, message: AcceptedGroupMessage): void {
  const settings = faults.current;
  if (settings.no_webhooks) return;
  const interval = settings.status_interval_ms;
  const start = Date.now();
  const posts: object[] = [];
  const at = () => start + (posts.length + 1) * interval;
  if (message.participants.length === 0 || message.failCode !== undefined) {
    posts.push(envelope(message.number, { statuses: [groupStatus(message, 'sent', at())] }));
    posts.push(envelope(message.number, { statuses: [groupStatus(message, 'failed', at())] }));
  } else {
    posts.push(envelope(message.number, { statuses: [groupStatus(message, 'sent', at())] }));
    const priced = new Set<string>();
    for (const status of ['delivered', 'read'] as const) {
      if (status === 'delivered' && settings.skip_delivered) continue;
      const reached = message.participants.filter((p) => statusSequence(p.wa_id).includes(status));
      if (reached.length === 0) continue;
      const when = at();
      const statuses = reached.map((p) => participantStatus(message, p, status, when, !priced.has(p.wa_id)));
      for (const p of reached) priced.add(p.wa_id);
      posts.push(envelope(message.number, { contacts: reached.map(contactOf), statuses }));
    }
  }
  // Each timer is set when the one before fires, as for 1:1 statuses (simulator/statuses.ts).
  const postFrom = (i: number) => {
    if (i === posts.length) return;
    webhooks.later(interval, () => {
      postFrom(i + 1);
      void webhooks.post(posts[i]).then(() => (settings.duplicate_statuses ? webhooks.post(posts[i]) : undefined));
    });
  };
  postFrom(0);
}
