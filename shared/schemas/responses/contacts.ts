/** What the contact operations answer (contract §7, §13). */
import * as v from 'valibot';
import { count, recordId, timestamp } from '#shared/schemas/responses/common';

export const contact = v.object({
  id: recordId(),
  name: v.nullable(v.string()),
  phone_number: v.pipe(v.string(), v.regex(/^\d*$/), v.description('Digits with the country code; empty for a customer the platform knows only by user_id')),
  email: v.nullable(v.string()),
  tags: v.array(v.string()),
  custom_fields: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
  opted_out_at: v.pipe(v.nullable(timestamp()), v.description('When the contact opted out of marketing messages; null while subscribed')),
  user_id: v.optional(v.pipe(v.string(), v.description("The platform's user id of a customer who wrote without a phone number"))),
  source: v.optional(v.pipe(v.literal('business_app'), v.description("Created from the WhatsApp Business app's contacts (a number shared with the app)"))),
  created_at: timestamp(),
  updated_at: timestamp(),
});

export const contactDeletion = v.object({ id: recordId(), phone_number: v.string(), deleted: v.literal(true) });

export const contactImport = v.object({
  total_submitted: count(),
  processed_count: count(),
  failed_count: count(),
  contacts: v.array(v.object({ id: recordId(), name: v.nullable(v.string()), phone_number: v.string(), created: v.boolean() })),
  errors: v.array(
    v.object({
      index: count(),
      phone: v.nullable(v.string()),
      code: v.pipe(v.string(), v.examples(['validation_error', 'duplicate_in_request', 'invalid_state'])),
      message: v.string(),
    }),
  ),
});
