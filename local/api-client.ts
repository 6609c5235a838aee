/** A JSON response as a client sees it. */
export interface Reply {
  status: number;
  headers: Headers;

  body: any;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as-is, for bodies that are not JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One HTTP call to the API the way a client makes it: Bearer key, JSON body. Non-JSON answers come back as text. */
export async function callApi(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.key && { Authorization: `Bearer ${options.key}` }) };
  let body = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { ...headers, ...options.headers }, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the caller asserts on the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
