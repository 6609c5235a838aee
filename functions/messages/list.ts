import * as v from 'valibot';
import { listMessages } from '#shared/domain/messages/list';
import { MESSAGE_STATUSES } from '#shared/domain/messages/message';
import { httpOperation } from '#shared/http/operation';
import { ok } from '#shared/http/responses';
import { pageParams, phone, uuid } from '#shared/http/schemas';

const query = v.object({
  ...pageParams,
  status: v.optional(v.picklist(MESSAGE_STATUSES, `Must be one of ${MESSAGE_STATUSES.join(', ')}`)),
  phone: v.optional(phone()),
  direction: v.optional(v.picklist(['outbound', 'inbound'], 'Must be outbound or inbound')),
  campaign_id: v.optional(uuid()),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(4096, 'Not a cursor from this list'))),
});

export const handler = httpOperation({ query }, async ({ query, workspace }) => {
  const { data, pagination } = await listMessages(workspace.id, query);
  return ok(data, { pagination });
});
