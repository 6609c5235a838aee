/** An API key as stored: never its secret, which is found by its SHA-256. */
export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  api_key_prefix: string;
  created_at: string;
  last_used_at?: string;
  revoked_at?: string;
}
