/** The document's `info.description`: what holds for every operation, said once. */
export const OVERVIEW = `Send WhatsApp template and session messages through Meta's WhatsApp Cloud API, run broadcast campaigns, keep contacts and groups, and receive signed webhooks of what happens.

**Authentication.** Every \`/api/v1\` operation takes an API key of the workspace: \`Authorization: Bearer sk_live_…\`. The workspace is always the key's; a workspace id given anywhere in a request is ignored. \`GET /health\` and this document need no key. The two \`/webhooks/whatsapp\` routes are not for API clients: Meta calls them, authenticated by its signature (\`X-Hub-Signature-256\`, scheme \`MetaSignature\`) or, for the handshake, the verify token. They are listed so that the document covers every route the deployment serves.

**Envelope.** Bodies are JSON. A success is \`{ "success": true, "data": …, "request_id": … }\` (with \`pagination\` on paged lists); an error is \`{ "success": false, "error": { "code", "message", "details"? }, "request_id" }\`. Every answer carries \`X-Request-Id\`, equal to \`request_id\`. Each operation lists, per status, the error codes it can answer with. A path or method not listed here is 404 \`route_not_found\`.

**Limits.** Request bodies up to 1 MiB. Each workspace has a request rate (plans starter, growth, pro: 20, 100, 500 requests per second, bursts up to twice that); over it, 429 \`rate_limited\` with \`Retry-After\` (seconds), \`RateLimit-Limit\` and \`RateLimit-Remaining\`. The deployed gateway's own answers (its stage-wide throttle, bodies over its size limit) come as \`{ "message": … }\` outside the envelope.

**Idempotency.** \`POST /api/v1/messages\`, \`POST /api/v1/campaigns/{id}/launch\` and \`POST /api/v1/campaigns/{id}/retry\` take an \`Idempotency-Key\` (kept 24 hours): the same key with the same body replays the first answer with \`Idempotent-Replayed: true\`; with another body it is 422 \`idempotency_key_reused\`, and while the first is in flight 409 \`idempotency_key_in_use\`.

**Pagination.** Paged lists take \`page\` (from 1) and \`pageSize\` (1–100, default 50) and answer \`pagination: { page, pageSize, totalCount, hasMore }\`; the message list also pages with the opaque \`cursor\` from \`pagination.nextCursor\`.

**Outbound webhooks.** Subscriptions (\`/api/v1/webhooks\`) receive signed \`POST\`s following the Standard Webhooks specification: body \`{ id, type, created_at, workspace_id, data }\`, headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`.`;
