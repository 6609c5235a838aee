import createClient, { type Client } from 'openapi-fetch';
import { idempotencyKeys } from './idempotency';
import { retryingOn429, type RetryOptions } from './retry';
import type { paths } from './schema';

export interface MessagingClientOptions {
  /** The deployment's URL, e.g. `http://localhost:3000` or the stack's `ApiUrl` output (without `/api/v1`). */
  baseUrl: string;
  /** An API key of the workspace (`sk_live_…`). */
  apiKey: string;
  retry?: RetryOptions;
  /** The fetch that sends each attempt (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export type MessagingClient = Client<paths>;

/**
 * A client of the API typed by its OpenAPI document: `client.POST('/api/v1/messages', { body })`
 * answers `{ data, error, response }`, each typed by the operation. Around it: the key on every
 * request, 429s retried after their `Retry-After`, and an Idempotency-Key on every send and launch.
 */
export function createMessagingClient(options: MessagingClientOptions): MessagingClient {
  const fetchOnce = options.fetch ?? ((request: Request) => fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingOn429(fetchOnce, options.retry),
  });
  client.use(idempotencyKeys());
  return client;
}
