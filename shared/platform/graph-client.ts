import { env } from '#shared/config';

/** An error answered by the Graph API, with the platform's code and title. */
export class PlatformError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly title: string,
  ) {
    super(`Graph API error ${code}: ${title}`);
    this.name = 'PlatformError';
  }
}

export interface PlatformTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components?: { type: string; text?: string }[];
}

const REQUEST_TIMEOUT_MS = 10_000;

async function graphGet<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: number; message?: string; error_user_title?: string } };
  if (!response.ok) {
    throw new PlatformError(response.status, body.error?.code ?? response.status, body.error?.error_user_title ?? body.error?.message ?? 'Unknown error');
  }
  return body as T;
}

/** Every message template of a WhatsApp Business Account, following the Graph API's cursor paging. */
export async function fetchTemplates(wabaId: string, token: string): Promise<PlatformTemplate[]> {
  const templates: PlatformTemplate[] = [];
  let url: string | undefined =
    `${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(wabaId)}/message_templates?limit=100&fields=id,name,language,category,status,components`;
  while (url) {
    const page: { data: PlatformTemplate[]; paging?: { next?: string } } = await graphGet(url, token);
    templates.push(...page.data);
    url = page.paging?.next;
  }
  return templates;
}
