import type { DynamoDBRecord } from 'aws-lambda';
import { chatGroupView } from '#shared/domain/chat-groups/chat-group';
import type { EventType } from '#shared/events/event';
import type { ChatGroup } from '#shared/records/chat-group';

/**
 * A chat group's change as events (contract §23). A group being created announces nothing until
 * the platform reports it (`chat_group.created`, also when it refused: `failed`); a group the
 * platform never accepted leaves without a word.
 */
export function chatGroupEvents(
  name: DynamoDBRecord['eventName'],
  group: ChatGroup | undefined,
  before: ChatGroup | undefined,
): { type: EventType; data: unknown }[] {
  if (name !== 'MODIFY' || !group || !before) return [];
  const data = chatGroupView(group);
  if (before.status === 'creating') return group.status === 'creating' ? [] : [{ type: 'chat_group.created', data }];
  if (group.status === 'deleted') return before.status === 'deleted' ? [] : [{ type: 'chat_group.deleted', data }];
  const events: { type: EventType; data: unknown }[] = [];
  const people = (g: ChatGroup) => JSON.stringify(g.participants.map((p) => [p.wa_id, p.user_id]));
  if (people(group) !== people(before)) events.push({ type: 'chat_group.participants_changed', data });
  if (group.join_requests.some((request) => !before.join_requests.some((earlier) => earlier.id === request.id)))
    events.push({ type: 'chat_group.join_requested', data });
  const shown = (g: ChatGroup) => JSON.stringify([g.subject, g.description, g.invite_link, g.suspended, g.status, g.error]);
  if (shown(group) !== shown(before)) events.push({ type: 'chat_group.updated', data });
  return events;
}
