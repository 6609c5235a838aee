/** What the number operations answer (contract §17). */
import * as v from 'valibot';
import { QUALITY_RATINGS } from '#shared/records/business-number';
import { timestamp } from '#shared/schemas/responses/common';

const digits = () => v.pipe(v.string(), v.regex(/^\d*$/));

export const businessNumber = v.object({
  id: v.pipe(digits(), v.description("The platform's phone number id: what `from` names")),
  display_phone_number: v.pipe(digits(), v.description('Digits with the country code; empty while the platform has not said')),
  verified_name: v.nullable(v.string()),
  waba_id: v.pipe(digits(), v.description('The WhatsApp Business Account it belongs to')),
  quality_rating: v.picklist(QUALITY_RATINGS),
  messaging_limit: v.pipe(
    v.nullable(v.string()),
    v.description("The platform's messaging limit tier, e.g. TIER_2K: its business portfolio's, shared by all the portfolio's numbers"),
  ),
  portfolio_messaging_limit: v.pipe(
    v.nullable(v.number()),
    v.description(
      'Unique customers the business portfolio may message outside a customer service window in a rolling 24 hours (`messaging_limit` as a number); null when unlimited or not known',
    ),
  ),
  throughput_mps: v.pipe(v.number(), v.description('Messages per second the platform allows it')),
  status: v.picklist(['connected', 'paused', 'disconnected']),
  paused_reason: v.nullable(v.object({ code: v.union([v.string(), v.number()]), title: v.string(), since: timestamp() })),
  is_default: v.boolean(),
  coexistence: v.pipe(
    v.nullable(v.object({ status: v.picklist(['shared', 'app_only']), since: timestamp(), reason: v.nullable(v.string()) })),
    v.description(
      "A number shared with the WhatsApp Business app (contract §23): `shared`, or `app_only` once the business went back to the app alone (the platform then refuses the API's sends); null for a Cloud API number",
    ),
  ),
  connected_at: timestamp(),
});

export const numberDisconnected = v.object({ id: digits(), disconnected: v.literal(true) });
