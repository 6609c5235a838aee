/** What the call operations answer (contract §23). */
import * as v from 'valibot';
import { amount, recordId, timestamp } from '#shared/schemas/responses/common';
import { CALL_STATUSES } from '#shared/records/call';

export const call = v.object({
  id: recordId(),
  from: v.pipe(v.string(), v.description('The business number (phone number id) of the call')),
  direction: v.pipe(v.picklist(['inbound', 'outbound']), v.description('`inbound`: the customer called; `outbound`: the business did')),
  phone_number: v.pipe(v.string(), v.description("The customer's digits; empty when the platform named only a user id")),
  user_id: v.nullable(v.string()),
  status: v.picklist(CALL_STATUSES),
  started_at: v.pipe(v.nullable(timestamp()), v.description('When it connected')),
  ended_at: v.nullable(timestamp()),
  duration_s: v.pipe(v.nullable(v.number()), v.description('Seconds connected, as the platform reported; null until it ends')),
  cost: v.pipe(
    v.nullable(v.object({ amount: amount(), currency: v.string(), market: v.string() })),
    v.description("Per started 6-second pulse at the rate card's `calls` price; 0 for a customer's call; null until it ends, or without call rates"),
  ),
  error: v.nullable(v.object({ code: v.number(), message: v.string() })),
  sdp_offer: v.pipe(v.nullable(v.string()), v.description("The customer's SDP offer (inbound) or the business's (outbound)")),
  sdp_answer: v.pipe(v.nullable(v.string()), v.description("The business's SDP answer (inbound) or the customer's (outbound)")),
  platform_call_id: v.string(),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const callingSettings = v.object({
  number_id: v.string(),
  enabled: v.boolean(),
  icon_visibility: v.pipe(v.string(), v.description('`DEFAULT`, or `DISABLE_ALL`: no call button, and customers cannot call unasked')),
  callback_permission: v.pipe(v.boolean(), v.description('Customers who call may be called back: the platform asks them for permission after their call')),
  hours: v.pipe(v.nullable(v.record(v.string(), v.unknown())), v.description("The platform's `call_hours` object; null when none is set")),
});

export const callPermission = v.object({
  from: v.string(),
  customer: v.pipe(v.string(), v.description("The customer's digits, or their user id")),
  status: v.picklist(['granted', 'denied']),
  permanent: v.boolean(),
  expires_at: v.nullable(timestamp()),
  updated_at: timestamp(),
});
