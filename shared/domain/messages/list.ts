import { getCampaign } from '#shared/data/campaign';
import { campaignCountsWithRetries } from '#shared/data/campaign-metrics';
import { getMessage } from '#shared/data/message';
import { conversationCount, messagesPage, type MessageFilter } from '#shared/data/message-list';
import { allStoredNumberCounts, messageCounts, messageCountsKeys, messageCountsOf, storedNumberCounts, type MessageCounts } from '#shared/data/message-counts';
import { storedNumber } from '#shared/domain/numbers/numbers';
import { COUNTER_OF_STATUS } from '#shared/domain/campaigns/campaign';
import { errors } from '#shared/errors';
import type { Pagination } from '#shared/pagination';
import { listView, numbered } from '#shared/domain/messages/message';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';
import { OUTBOUND_STATUSES, type Message, type MessageStatus } from '#shared/records/message';

export interface MessageQuery extends Omit<MessageFilter, 'stored_number'> {
  business_number_id?: string;
  page: number;
  pageSize: number;
  cursor?: string;
}

export async function requireMessage(ws: string, id: string): Promise<Message> {
  const message = await getMessage(ws, id, true);
  if (!message) throw errors.notFound('Message');
  return message;
}

/**
 * A campaign's message count (all, or of one status), from its metric shards. The metrics count
 * each recipient by its latest message; the list also holds the failed messages retries replaced.
 */
async function campaignMessageCount(ws: string, campaignId: string, status?: MessageStatus): Promise<number> {
  const { counts, retried } = await campaignCountsWithRetries(ws, campaignId);
  if (!status) return counts.total_messages + retried;
  if (status === 'failed') return counts.failed + retried;
  const counter = COUNTER_OF_STATUS[status];
  return counter ? counts[counter] : 0;
}

/** Whether the campaign sends from the number filtered (any, when none is). */
async function campaignFromNumber(workspace: Workspace, campaignId: string, numberId: string | undefined): Promise<boolean> {
  if (numberId === undefined) return true;
  const campaign = await getCampaign(workspace.id, campaignId, false);
  return (campaign?.business_number_id ?? firstNumberOf(workspace)) === numberId;
}

/**
 * The message counts of one number, or of all. A message stores its number unless it is the
 * workspace's first (storedNumber): the first's are all the messages less every stored number's.
 */
async function countsOfNumber(workspace: Workspace, numberId: string | undefined): Promise<MessageCounts> {
  const ws = workspace.id;
  const stored = numberId === undefined ? undefined : storedNumber(workspace, numberId).business_number_id;
  if (numberId === undefined) return messageCounts(ws);
  if (stored !== undefined) return storedNumberCounts(ws, stored);
  const [all, others] = await Promise.all([messageCounts(ws), allStoredNumberCounts(ws)]);
  return Object.fromEntries(Object.entries(all).map(([status, count]) => [status, count - others[status as MessageStatus]])) as MessageCounts;
}

/** The messages the counts hold that pass the query's status and direction. */
function countOf(counts: MessageCounts, query: MessageQuery): number {
  const inDirection = (status: MessageStatus) => !query.direction || (query.direction === 'inbound') === (status === 'received');
  const statuses = query.status ? [query.status] : ([...OUTBOUND_STATUSES, 'received'] as MessageStatus[]);
  return statuses.filter(inDirection).reduce((sum, status) => sum + counts[status], 0);
}

/** Whether the total is the workspace's counts alone, which the page's read can bring along (listMessages). */
const countedByWorkspace = (query: MessageQuery, filter: MessageFilter) =>
  !filter.phone && !filter.chat_group_id && !query.campaign_id && query.business_number_id === undefined;

/** Exact count for the filter: counters for status/direction/campaign/number, the (bounded) conversation for a phone. */
async function totalCount(workspace: Workspace, query: MessageQuery, filter: MessageFilter): Promise<number> {
  const ws = workspace.id;
  if (filter.phone || filter.chat_group_id) return conversationCount(ws, filter);
  if (query.campaign_id) {
    if (query.direction === 'inbound' || !(await campaignFromNumber(workspace, query.campaign_id, query.business_number_id))) return 0;
    return campaignMessageCount(ws, query.campaign_id, query.status);
  }
  return countOf(await countsOfNumber(workspace, query.business_number_id), query);
}

/** Newest first, offset pages or an opaque cursor; with a cursor, `page` is ignored. `listShards`: the partitions the list reads, as the request's admission found them. */
export async function listMessages(
  workspace: Workspace,
  query: MessageQuery,
  listShards: number,
): Promise<{ data: ReturnType<typeof listView>[]; pagination: Pagination }> {
  const ws = workspace.id;
  const { page: requested, pageSize, cursor, business_number_id, ...rest } = query;
  const filter: MessageFilter = {
    ...rest,
    ...(business_number_id !== undefined && { stored_number: storedNumber(workspace, business_number_id).business_number_id ?? null }),
  };
  if (filter.phone && filter.chat_group_id)
    throw errors.validation([{ field: 'chat_group_id', message: 'A chat group is a conversation of its own: filter by phone or by chat_group_id' }]);
  const page = cursor === undefined ? requested : 1;
  // The workspace's counts are read with the page's messages, in one call, when they are the total.
  const byWorkspace = countedByWorkspace(query, filter);
  const [found, otherTotal] = await Promise.all([
    messagesPage(ws, filter, { skip: (page - 1) * pageSize, take: pageSize, cursor }, listShards, byWorkspace ? messageCountsKeys(ws) : []),
    byWorkspace ? undefined : totalCount(workspace, query, filter),
  ]);
  if (found === 'invalid_cursor') throw errors.validation([{ field: 'cursor', message: 'Not a cursor from this list (it depends on the filters)' }]);
  const total = otherTotal ?? countOf(messageCountsOf(ws, found.alsoFound), query);
  return {
    data: found.messages.map((m) => listView(numbered(m, firstNumberOf(workspace)))),
    pagination: { page, pageSize, totalCount: total, hasMore: found.nextCursor !== null, nextCursor: found.nextCursor },
  };
}
