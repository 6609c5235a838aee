/** What the API-key operations answer (contract §3). */
import * as v from 'valibot';
import { recordId, timestamp } from '#shared/schemas/responses/common';

const keyFields = () => ({
  id: recordId(),
  name: v.string(),
  description: v.nullable(v.string()),
  api_key_prefix: v.pipe(v.string(), v.endsWith('...')),
  created_at: timestamp(),
});

/** An active key as listed: never the secret. */
export const apiKey = v.object({ ...keyFields(), last_used_at: v.nullable(timestamp()) });

/** A new key: the only answer that carries the secret. */
export const createdApiKey = v.object({ ...keyFields(), last_used_at: v.null(), api_key: v.pipe(v.string(), v.regex(/^sk_live_[A-Za-z0-9_-]{32,}$/)) });

export const revokedApiKey = v.object({ id: recordId(), revoked: v.literal(true), revoked_at: timestamp() });
