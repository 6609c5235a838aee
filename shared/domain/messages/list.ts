import { campaignCountsWithRetries } from '#shared/data/campaign-metrics';
import { getMessage } from '#shared/data/message';
import { conversationCount, messagesPage, type MessageFilter } from '#shared/data/message-list';
import { messageCounts } from '#shared/data/message-counts';
import { COUNTER_OF_STATUS } from '#shared/domain/campaigns/campaign';
import { errors } from '#shared/errors';
import type { Pagination } from '#shared/pagination';
import { listView, numbered } from '#shared/domain/messages/message';
import type { Workspace } from '#shared/records/workspace';
import { OUTBOUND_STATUSES, type Message, type MessageStatus } from '#shared/records/message';

export interface MessageQuery extends MessageFilter {
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

/** Exact count for the filter: counters for status/direction/campaign, the (bounded) conversation for a phone. */
async function totalCount(ws: string, query: MessageQuery): Promise<number> {
  if (query.phone) return conversationCount(ws, { ...query, phone: query.phone });
  const inDirection = (status: MessageStatus) => !query.direction || (query.direction === 'inbound') === (status === 'received');
  if (query.campaign_id) {
    if (query.direction === 'inbound') return 0;
    return campaignMessageCount(ws, query.campaign_id, query.status);
  }
  const counts = await messageCounts(ws);
  const statuses = query.status ? [query.status] : ([...OUTBOUND_STATUSES, 'received'] as MessageStatus[]);
  return statuses.filter(inDirection).reduce((sum, status) => sum + counts[status], 0);
}

/** Newest first, offset pages or an opaque cursor; with a cursor, `page` is ignored. */
export async function listMessages(workspace: Workspace, query: MessageQuery): Promise<{ data: ReturnType<typeof listView>[]; pagination: Pagination }> {
  const ws = workspace.id;
  const { page: requested, pageSize, cursor, ...filter } = query;
  const page = cursor === undefined ? requested : 1;
  const [found, total] = await Promise.all([messagesPage(ws, filter, { skip: (page - 1) * pageSize, take: pageSize, cursor }), totalCount(ws, query)]);
  if (found === 'invalid_cursor') throw errors.validation([{ field: 'cursor', message: 'Not a cursor from this list (it depends on the filters)' }]);
  return {
    data: found.messages.map((m) => listView(numbered(m, workspace.phone_number_id))),
    pagination: { page, pageSize, totalCount: total, hasMore: found.nextCursor !== null, nextCursor: found.nextCursor },
  };
}
