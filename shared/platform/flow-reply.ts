import { parseBoundedJson } from '#shared/bounded-json';

/**
 * A flow's answers (`interactive.type: "nfm_reply"`, Meta "Receiving Flow Response"): `body` is
 * what the customer's chat shows ("Sent"), `response_json` a JSON document in a string, holding
 * the `flow_token` and what the flow collected. Kept as `flow_response` when it parses within the
 * bounds a message can keep (shared/bounded-json.ts), else null.
 */
export function flowReplyOf(reply: Record<string, unknown> | undefined) {
  const body = typeof reply?.body === 'string' ? reply.body : '';
  const json = reply?.response_json;
  return {
    content: body,
    interactive: { type: 'nfm_reply', id: null, title: body || null, description: null },
    flow_response: typeof json === 'string' ? parseBoundedJson(json) : null,
  };
}
