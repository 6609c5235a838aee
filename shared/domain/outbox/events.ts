import type { DynamoDBRecord } from 'aws-lambda';
import { campaignFromStreamImage } from '#shared/data/campaign';
import { numberFromStreamImage } from '#shared/data/business-number';
import { numberView } from '#shared/domain/numbers/numbers';
import type { BusinessNumber } from '#shared/records/business-number';
import { contactFromStreamImage } from '#shared/data/contact';
import { chatGroupFromStreamImage } from '#shared/data/chat-group';
import { chatGroupEvents } from '#shared/domain/outbox/chat-group-events';
import { callFromStreamImage, callPermissionFromStreamImage } from '#shared/data/call';
import { callEvents, permissionEvents } from '#shared/domain/outbox/call-events';
import { messageFromStreamImage } from '#shared/data/message';
import { templateFromStreamImage } from '#shared/data/template';
import { resultsView } from '#shared/domain/campaigns/campaign';
import { campaignBilled } from '#shared/data/campaign-metrics';
import { campaignCost } from '#shared/domain/pricing/campaign-cost';
import { publicContact } from '#shared/domain/contacts/contact';
import { detailView, numbered, type NumberedMessage } from '#shared/domain/messages/message';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { publicTemplate } from '#shared/domain/templates/template';
import { ZERO_COUNTS, type Campaign } from '#shared/records/campaign';
import type { Contact } from '#shared/records/contact';
import type { Message } from '#shared/records/message';
import type { Template } from '#shared/records/template';
import { stableId } from '#shared/ids';
import type { EventType, ServiceEvent } from '#shared/events/event';

type Image = NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];

const REPORTS = ['sent', 'delivered', 'read', 'failed'] as const;

type Events = { type: EventType; data: unknown }[];

async function templateEvents(workspaceId: string, name: DynamoDBRecord['eventName'], now: Template | undefined, then: Template | undefined): Promise<Events> {
  if (name !== 'MODIFY') return [];
  // The first business account's templates do not carry their account (contract §17).
  const wabaId = now!.waba_id ?? (await cachedWorkspace(workspaceId))?.waba_id ?? '';
  // Every sync rewrites the item; only a change a client can see is an update.
  const [shown, shownBefore] = [publicTemplate({ ...now!, waba_id: wabaId }), publicTemplate({ ...then!, waba_id: wabaId })];
  return JSON.stringify(shown) === JSON.stringify(shownBefore) ? [] : [{ type: 'template.updated', data: shown }];
}

/**
 * A message reports each platform report the change recorded (its timestamp newly set), so a
 * `delivered` that arrives after `read` is still announced, though the status did not move back.
 */
function messageEvents(name: DynamoDBRecord['eventName'], message: NumberedMessage | undefined, before: Message | undefined): Events {
  // The app's chats before onboarding are history, not news (contract §23); what the business sends from the app is an echo.
  if (message?.source === 'history' || (!message && before?.source === 'history')) return [];
  if (message?.source === 'business_app') return name === 'INSERT' ? [{ type: 'message.echoed', data: detailView(message) }] : [];
  if (name === 'INSERT' && message!.direction === 'inbound')
    return [{ type: 'message.received', data: { ...detailView(message!), contact_id: message!.contact_id ?? null } }];
  // Refused before sending (a campaign message to a number that opted out): failed from the start.
  if (name === 'INSERT' && message!.status === 'failed') return [{ type: 'message.failed', data: detailView(message!) }];
  if (name !== 'MODIFY') return [];
  const previous = before!.metadata;
  return REPORTS.filter((report) => message!.metadata[`${report}_at`] && !previous?.[`${report}_at`]).map((report) => ({
    type: `message.${report}` as EventType,
    data: detailView(message!),
  }));
}

/** A number the platform re-rated (quality, limit, name): `number.updated` with the number as `GET /numbers` shows it. */
async function numberEvents(name: DynamoDBRecord['eventName'], number: BusinessNumber | undefined, before: BusinessNumber | undefined): Promise<Events> {
  if (name !== 'MODIFY' || number!.status !== 'connected') return [];
  const rated = (n: BusinessNumber) =>
    JSON.stringify([n.quality_rating, n.messaging_limit, n.throughput_mps, n.verified_name, n.display_phone_number, n.coexistence ?? null]);
  if (rated(number!) === rated(before!)) return [];
  const workspace = await cachedWorkspace(number!.workspace_id);
  return workspace ? [{ type: 'number.updated', data: await numberView(workspace, number!) }] : [];
}

/** A message from before several numbers went out from its workspace's first number (contract §17, "Upgrade"). */
async function withNumber(message: Message | undefined): Promise<NumberedMessage | undefined> {
  if (!message) return undefined;
  if (message.business_number_id) return message as NumberedMessage;
  return numbered(message, (await cachedWorkspace(message.workspace_id))?.phone_number_id ?? '');
}

async function campaignEvents(name: DynamoDBRecord['eventName'], campaign: Campaign | undefined, before: Campaign | undefined): Promise<Events> {
  if (name !== 'MODIFY' || campaign!.status === before?.status) return [];
  // Counts as they stood: none yet at the start; the snapshot written with the completion at the end, with the cost billed by then.
  const { workspace_id: ws, id } = campaign!;
  if (campaign!.status === 'running') return [{ type: 'campaign.started', data: resultsView(campaign!, ZERO_COUNTS, await campaignCost(campaign!, {})) }];
  if (campaign!.status === 'completed') {
    const cost = await campaignCost(campaign!, await campaignBilled(ws, id));
    return [{ type: 'campaign.completed', data: resultsView(campaign!, campaign!.completion_counts ?? ZERO_COUNTS, cost) }];
  }
  return [];
}

function contactEvents(name: DynamoDBRecord['eventName'], contact: Contact | undefined, before: Contact | undefined): Events {
  if (name === 'INSERT') return [{ type: 'contact.created', data: publicContact(contact!) }];
  if (name === 'MODIFY') return [{ type: 'contact.updated', data: publicContact(contact!) }];
  return [{ type: 'contact.deleted', data: { id: before!.id, phone_number: before!.phone_number } }];
}

/**
 * What a change of one record means to subscribers, and the workspace it happened in: each
 * record's data module recognises its own images. Other records mean nothing to them.
 */
async function describe(name: DynamoDBRecord['eventName'], after: Image, before: Image): Promise<{ workspaceId: string; events: Events } | undefined> {
  const both = <T>(read: (image: Image) => T | undefined) => [read(after), read(before)] as const;
  const [template, oldTemplate] = both(templateFromStreamImage);
  if (template || oldTemplate)
    return {
      workspaceId: (template ?? oldTemplate)!.workspace_id,
      events: await templateEvents((template ?? oldTemplate)!.workspace_id, name, template?.template, oldTemplate?.template),
    };
  const [message, oldMessage] = both(messageFromStreamImage);
  if (message || oldMessage) return { workspaceId: (message ?? oldMessage)!.workspace_id, events: messageEvents(name, await withNumber(message), oldMessage) };
  const [campaign, oldCampaign] = both(campaignFromStreamImage);
  if (campaign || oldCampaign) return { workspaceId: (campaign ?? oldCampaign)!.workspace_id, events: await campaignEvents(name, campaign, oldCampaign) };
  const [number, oldNumber] = both(numberFromStreamImage);
  if (number || oldNumber) return { workspaceId: (number ?? oldNumber)!.workspace_id, events: await numberEvents(name, number, oldNumber) };
  // Contacts carry no workspace attribute: their data module reads it from the key.
  const [contact, oldContact] = both(contactFromStreamImage);
  if (contact || oldContact) return { workspaceId: (contact ?? oldContact)!.workspace_id, events: contactEvents(name, contact?.contact, oldContact?.contact) };
  const [chatGroup, oldChatGroup] = both(chatGroupFromStreamImage);
  if (chatGroup || oldChatGroup) return { workspaceId: (chatGroup ?? oldChatGroup)!.workspace_id, events: chatGroupEvents(name, chatGroup, oldChatGroup) };
  const [call, oldCall] = both(callFromStreamImage);
  if (call || oldCall) return { workspaceId: (call ?? oldCall)!.workspace_id, events: callEvents(name, call, oldCall) };
  const [permission, oldPermission] = both(callPermissionFromStreamImage);
  if (permission || oldPermission)
    return { workspaceId: (permission ?? oldPermission)!.workspace_id, events: permissionEvents(name, permission, oldPermission) };
  return undefined;
}

/**
 * The events a table change stands for. Their ids derive from the stream record's id and the
 * type, so a record delivered twice yields the same events, which subscribers get once.
 */
export async function eventsFromRecord(record: DynamoDBRecord): Promise<ServiceEvent[]> {
  const described = await describe(record.eventName, record.dynamodb?.NewImage, record.dynamodb?.OldImage);
  // A workspace being erased announces nothing: not the deletions of its contacts, not what was under way.
  if (described?.events.length && !(await cachedWorkspace(described.workspaceId))) return [];
  const at = Math.floor((record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000);
  return (described?.events ?? []).map(({ type, data }) => ({
    id: stableId(`${record.eventSourceARN}:${record.eventID}:${type}`, at),
    type,
    created_at: new Date(at).toISOString(),
    workspace_id: described!.workspaceId,
    data,
  }));
}
