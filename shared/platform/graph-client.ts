import { env } from '#shared/config';

/** Throughput and rate limits, and temporary platform faults: retried with back-off (contract §11). Any 5xx too. */
const RETRYABLE_CODES = new Set([4, 80007, 130429, 131056, 1, 2, 131000, 131016, 131057]);

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

  get retryable(): boolean {
    return this.httpStatus === 429 || this.httpStatus >= 500 || RETRYABLE_CODES.has(this.code);
  }
}

export interface PlatformTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameter_format?: string;
  components?: PlatformTemplateComponent[];
}

/** A component of a listed template: `HEADER` (with `format`), `BODY`, `FOOTER`, `BUTTONS`; `example` blocks are not read. */
export interface PlatformTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: PlatformTemplateButton[];
}

export interface PlatformTemplateButton {
  type: string;
  text?: string;
  url?: string;
  phone_number?: string;
  otp_type?: string;
}

const REQUEST_TIMEOUT_MS = 10_000;

/** The platform did not answer (network failure or time-out): whether it acted is unknown. */
export class PlatformUnreachable extends Error {
  constructor(cause: unknown) {
    super(`Graph API unreachable: ${(cause as Error).message}`);
    this.name = 'PlatformUnreachable';
  }
}

async function graphRequest<T>(url: string, token: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new PlatformUnreachable(error);
  }
  const answer = (await response.json().catch(() => ({}))) as { error?: { code?: number; message?: string; error_user_title?: string } };
  if (!response.ok) {
    throw new PlatformError(response.status, answer.error?.code ?? response.status, answer.error?.error_user_title ?? answer.error?.message ?? 'Unknown error');
  }
  return answer as T;
}

export interface OutgoingMessage {
  to: string;
  /** `components` as built by shared/domain/templates/parameters.ts (none when the template takes no parameter). */
  template?: { name: string; language: string; components: object[] };
  text?: string;
  /** Comes back in the platform's status webhooks: our message id. */
  callbackData: string;
}

/** POST /{version}/{phone_number_id}/messages; the platform's message id (`wamid.…`). */
export async function sendPlatformMessage(phoneNumberId: string, token: string, message: OutgoingMessage): Promise<string> {
  const body = {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to,
    biz_opaque_callback_data: message.callbackData,
    ...(message.template
      ? {
          type: 'template',
          template: {
            name: message.template.name,
            language: { code: message.template.language },
            ...(message.template.components.length && { components: message.template.components }),
          },
        }
      : { type: 'text', text: { body: message.text, preview_url: false } }),
  };
  const answer = await graphRequest<{ messages?: { id: string }[] }>(`${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(phoneNumberId)}/messages`, token, body);
  const id = answer.messages?.[0]?.id;
  if (!id) throw new PlatformError(200, 0, 'The platform accepted the message without an id');
  return id;
}

/** Every message template of a WhatsApp Business Account, following the Graph API's cursor paging. */
export async function fetchTemplates(wabaId: string, token: string): Promise<PlatformTemplate[]> {
  const templates: PlatformTemplate[] = [];
  let url: string | undefined =
    `${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(wabaId)}/message_templates?limit=100&fields=id,name,language,category,status,components,parameter_format`;
  while (url) {
    const page: { data: PlatformTemplate[]; paging?: { next?: string } } = await graphRequest(url, token);
    templates.push(...page.data);
    url = page.paging?.next;
  }
  return templates;
}
