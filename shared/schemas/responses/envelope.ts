/**
 * The envelope every JSON answer of the API comes in (shared/http/middleware/envelope.ts):
 * success with `data` (and `pagination` on paged lists), or an error; `request_id` on both.
 */
import * as v from 'valibot';
import { count, recordId } from '#shared/schemas/responses/common';

const pageEntries = () => ({
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  pageSize: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
  totalCount: v.pipe(count(), v.description('Exact for the filter')),
  hasMore: v.boolean(),
});

export const pagination = v.object(pageEntries());

/** The message list's block: also the cursor of the next page (null on the last). */
export const cursorPagination = v.object({
  ...pageEntries(),
  nextCursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null on the last')),
});

export const successEnvelope = (data: v.GenericSchema, paging?: v.GenericSchema): v.GenericSchema =>
  paging
    ? v.object({ success: v.literal(true), data, pagination: paging, request_id: recordId() })
    : v.object({ success: v.literal(true), data, request_id: recordId() });

export const errorEnvelope = v.object({
  success: v.literal(false),
  error: v.object({
    code: v.string(),
    message: v.string(),
    details: v.optional(
      v.pipe(v.array(v.object({ field: v.string(), message: v.string() })), v.description('One entry per problem; `field` is the dotted path')),
    ),
  }),
  request_id: recordId(),
});
