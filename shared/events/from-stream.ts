import type { DynamoDBRecord } from 'aws-lambda';
import { streamImage } from '#shared/data/table/stream-image';
import { resultsView } from '#shared/domain/campaigns/campaign';
import { ZERO_COUNTS, type Campaign } from '#shared/records/campaign';
import { publicContact } from '#shared/domain/contacts/contact';
import type { Contact } from '#shared/records/contact';
import { detailView } from '#shared/domain/messages/message';
import type { Message } from '#shared/records/message';
import { isTemplateItem, toTemplate } from '#shared/data/template';
import { publicTemplate } from '#shared/domain/templates/template';
import { stableId } from '#shared/ids';
import type { EventType, ServiceEvent } from '#shared/events/event';

type Item = Record<string, unknown>;

const REPORTS = ['sent', 'delivered', 'read', 'failed'] as const;

/**
 * What a change of one record means to subscribers. A message reports each platform report the
 * change recorded (its timestamp newly set), so a `delivered` that arrives after `read` is still
 * announced, though the status did not move back.
 */
function describe(name: DynamoDBRecord['eventName'], item: Item | undefined, before: Item | undefined): { type: EventType; data: unknown }[] {
  const record = item ?? before;
  if (!record) return [];
  if (isTemplateItem(record)) {
    if (name !== 'MODIFY') return [];
    // Every sync rewrites the item; only a change a client can see is an update.
    const [now, then] = [publicTemplate(toTemplate(item!)), publicTemplate(toTemplate(before!))];
    return JSON.stringify(now) === JSON.stringify(then) ? [] : [{ type: 'template.updated', data: now }];
  }
  switch (record.SK) {
    case 'MESSAGE': {
      const message = item as unknown as Message;
      if (name === 'INSERT' && message.direction === 'inbound') return [{ type: 'message.received', data: { ...detailView(message), contact_id: message.contact_id ?? null } }];
      // Refused before sending (a campaign message to a number that opted out): failed from the start.
      if (name === 'INSERT' && message.status === 'failed') return [{ type: 'message.failed', data: detailView(message) }];
      if (name !== 'MODIFY') return [];
      const previous = (before as unknown as Message).metadata;
      return REPORTS.filter((report) => message.metadata[`${report}_at`] && !previous?.[`${report}_at`]).map((report) => ({ type: `message.${report}` as EventType, data: detailView(message) }));
    }
    case 'CAMPAIGN': {
      const campaign = item as unknown as Campaign;
      if (name !== 'MODIFY' || campaign.status === before?.status) return [];
      // Counts as they stood: none yet at the start; the snapshot written with the completion at the end.
      if (campaign.status === 'running') return [{ type: 'campaign.started', data: resultsView(campaign, ZERO_COUNTS) }];
      if (campaign.status === 'completed') return [{ type: 'campaign.completed', data: resultsView(campaign, campaign.completion_counts ?? ZERO_COUNTS) }];
      return [];
    }
    case 'CONTACT': {
      if (name === 'INSERT') return [{ type: 'contact.created', data: publicContact(item as unknown as Contact) }];
      if (name === 'MODIFY') return [{ type: 'contact.updated', data: publicContact(item as unknown as Contact) }];
      return [{ type: 'contact.deleted', data: { id: before!.id, phone_number: before!.phone_number } }];
    }
    default:
      return [];
  }
}

/**
 * The events a table change stands for. Their ids derive from the stream record's id and the
 * type, so a record delivered twice yields the same events, which subscribers get once.
 */
export function eventsFromRecord(record: DynamoDBRecord): ServiceEvent[] {
  const item = streamImage(record.dynamodb?.NewImage);
  const before = streamImage(record.dynamodb?.OldImage);
  const at = Math.floor((record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
  const record_ = (item ?? before)!;
  return describe(record.eventName, item, before).map(({ type, data }) => ({
    id: stableId(`${record.eventSourceARN}:${record.eventID}:${type}`, at),
    type,
    created_at: new Date(at).toISOString(),
    // Contacts carry no workspace attribute: it is the key's `WS#{id}` prefix.
    workspace_id: String(record_.workspace_id ?? String(record_.PK).split('#')[1]),
    data,
  }));
}
