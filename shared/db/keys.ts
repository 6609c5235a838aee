/**
 * Every key of the single table is built here, so the data model reads in one place
 * (see docs/data-model.md). `ws` is always the workspace id taken from the API key.
 */

/** Writes to usage counters are spread over this many partitions per workspace. */
export const USAGE_SHARDS = 4;

export const keys = {
  workspace: (ws: string) => ({ PK: `WS#${ws}`, SK: 'WORKSPACE' }),
  workspaceList: (ws: string) => ({ GSI1PK: 'WORKSPACES', GSI1SK: ws }),
  /** Maps the platform's phone_number_id to its workspace (and keeps it unique). */
  phoneNumber: (phoneNumberId: string) => ({ PK: `PHONE_NUMBER#${phoneNumberId}`, SK: 'PHONE_NUMBER' }),

  /** An API key is found by the SHA-256 of its secret: one strongly consistent GetItem per request. */
  apiKey: (hash: string) => ({ PK: `API_KEY#${hash}`, SK: 'API_KEY' }),
  /** Active keys of a workspace, newest first (ids are UUIDv7, so they sort by creation time). */
  apiKeyList: (ws: string, id?: string) => ({ GSI1PK: `WS#${ws}#API_KEYS`, ...(id && { GSI1SK: id }) }),

  usageDay: (ws: string, shard: number, date: string) => ({ PK: `WS#${ws}#USAGE#${shard}`, SK: date }),

  /** All templates of a workspace share one small item collection: read-mostly, bounded by the platform. */
  templates: (ws: string) => ({ PK: `WS#${ws}#TEMPLATES` }),
  template: (ws: string, name: string, language: string) => ({ PK: `WS#${ws}#TEMPLATES`, SK: `${name}#${language}` }),
};
