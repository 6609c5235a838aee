/**
 * Every key of the single table is built here, so the data model reads in one place
 * (see docs/data-model.md). `ws` is always the workspace id taken from the API key.
 */

/** Writes to usage counters are spread over this many partitions per workspace. */
export const USAGE_SHARDS = 4;
/** Message list index partitions and message counter items per workspace: a 1,000 message/s campaign stays under a partition's write limit. */
export const MESSAGE_SHARDS = 8;

export const keys = {
  workspace: (ws: string) => ({ PK: `WS#${ws}`, SK: 'WORKSPACE' }),
  workspaceList: (ws: string) => ({ GSI1PK: 'WORKSPACES', GSI1SK: ws }),
  /** Maps the platform's phone_number_id to its workspace (and keeps it unique). */
  phoneNumber: (phoneNumberId: string) => ({ PK: `PHONE_NUMBER#${phoneNumberId}`, SK: 'PHONE_NUMBER' }),

  /** An API key is found by the SHA-256 of its secret: one strongly consistent GetItem per request. */
  apiKey: (hash: string) => ({ PK: `API_KEY#${hash}`, SK: 'API_KEY' }),
  /** Active keys of a workspace, newest first (ids are UUIDv7, so they sort by creation time). */
  apiKeyList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#API_KEYS`, ...(id && { GSI1SK: id }) }),

  usageDay: (ws: string, shard: number, date: string) => ({ PK: `WS#${ws}#USAGE#${shard}`, SK: date }),

  /** All templates of a workspace share one small item collection: read-mostly, bounded by the platform. */
  templates: (ws: string) => ({ PK: `WS#${ws}#TEMPLATES` }),
  template: (ws: string, name: string, language: string) => ({ PK: `WS#${ws}#TEMPLATES`, SK: `${name}#${language}` }),

  /** Exact counts for lists: one item per counted thing (all contacts, each tag, all groups). */
  counter: (ws: string, name: string) => ({ PK: `WS#${ws}#COUNTERS`, SK: name }),

  contact: (ws: string, id: string) => ({ PK: `WS#${ws}#CONTACT#${id}`, SK: 'CONTACT' }),
  contactList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CONTACTS`, ...(id && { GSI1SK: id }) }),
  /** One contact per phone number and workspace: the claim's conditional put is the uniqueness check. */
  contactPhone: (ws: string, digits: string) => ({ PK: `WS#${ws}#PHONE#${digits}`, SK: 'CONTACT_PHONE' }),
  /** A contact's tag, in the contact's item collection, indexed by tag (lower-case) for filtering. */
  contactTag: (ws: string, contactId: string, tag: string) => ({ PK: `WS#${ws}#CONTACT#${contactId}`, SK: `TAG#${tag}` }),
  taggedList: (ws: string, tag: string, contactId?: string) => ({ GSI1PK: `WS#${ws}#TAG#${tag}`, ...(contactId && { GSI1SK: contactId }) }),

  group: (ws: string, id: string) => ({ PK: `WS#${ws}#GROUP#${id}`, SK: 'GROUP' }),
  groupList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#GROUPS`, ...(id && { GSI1SK: id }) }),
  /** A membership is two items: the group's side (to list members) and the contact's side (to leave groups on delete). */
  groupMember: (ws: string, groupId: string, contactId: string) => ({ PK: `WS#${ws}#GROUP#${groupId}`, SK: `MEMBER#${contactId}` }),
  contactGroup: (ws: string, contactId: string, groupId: string) => ({ PK: `WS#${ws}#CONTACT#${contactId}`, SK: `GROUP#${groupId}` }),

  /** Scoped to workspace and endpoint, as the contract says; expires by TTL after 24 hours. */
  idempotency: (ws: string, endpoint: string, key: string) => ({ PK: `WS#${ws}#IDEMPOTENCY#${endpoint}#${key}`, SK: 'IDEMPOTENCY' }),

  message: (ws: string, id: string) => ({ PK: `WS#${ws}#MSG#${id}`, SK: 'MESSAGE' }),
  /** Newest first, spread over MESSAGE_SHARDS partitions; the list merges them. */
  messageList: (ws: string, shard: number, id?: string) => ({ GSI3PK: `WS#${ws}#MESSAGES#${shard}`, ...(id && { GSI3SK: id }) }),
  /** One number's conversation, newest first: the `phone` filter. */
  phoneMessages: (ws: string, digits: string, id?: string) => ({ GSI2PK: `WS#${ws}#PHONE_MESSAGES#${digits}`, ...(id && { GSI2SK: id }) }),
  /** The last inbound message from a number: the 24-hour customer service window. */
  window: (ws: string, digits: string) => ({ PK: `WS#${ws}#WINDOW#${digits}`, SK: 'WINDOW' }),
  campaign: (ws: string, id: string) => ({ PK: `WS#${ws}#CAMPAIGN#${id}`, SK: 'CAMPAIGN' }),
  campaignList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#CAMPAIGNS`, ...(id && { GSI1SK: id }) }),
  /** A campaign's message counts by status, sharded like the workspace's (a message's shard moves with it). */
  campaignMetrics: (ws: string, campaignId: string, shard?: number) => ({ PK: `WS#${ws}#CAMPAIGN#${campaignId}`, SK: shard === undefined ? 'METRICS#' : `METRICS#${shard}` }),
  /** The resolved audience of one launch, in chunks the fan-out works through one job at a time. */
  audienceChunk: (ws: string, campaignId: string, launchId: string, chunk: number) => ({
    PK: `WS#${ws}#CAMPAIGN#${campaignId}`,
    SK: `AUDIENCE#${launchId}#${String(chunk).padStart(5, '0')}`,
  }),

  /** Message counts by status, one item per shard, each in its own partition (they are written on every status change). */
  messageCounts: (ws: string, shard: number) => ({ PK: `WS#${ws}#MESSAGE_COUNTS#${shard}`, SK: 'COUNTS' }),

  webhook: (ws: string, id: string) => ({ PK: `WS#${ws}#WEBHOOK#${id}`, SK: 'WEBHOOK' }),
  webhookList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#WEBHOOKS`, ...(id && { GSI1SK: id }) }),
  /** A subscription's delivery log lives in its item collection, newest first (ids are UUIDv7), expiring by TTL. */
  webhookDelivery: (ws: string, webhookId: string, deliveryId: string) => ({ PK: `WS#${ws}#WEBHOOK#${webhookId}`, SK: `DELIVERY#${deliveryId}` }),

  /** Sends per second per platform number (fixed one-second windows). */
  sendRate: (phoneNumberId: string, second: number) => ({ PK: `SEND_RATE#${phoneNumberId}`, SK: String(second) }),
};

export const counterNames = {
  contacts: 'contacts',
  groups: 'groups',
  campaigns: 'campaigns',
  tag: (tag: string) => `tag#${tag}`,
};
