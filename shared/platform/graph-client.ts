import { env } from '#shared/config';
import { graphHttp, type GraphResponse } from '#shared/platform/graph-http';
import { mayHaveReachedPlatform } from '#shared/platform/error-codes';
import { hexSha256 } from '#shared/platform/media-hash';
import { messageBody, type OutgoingMessage } from '#shared/platform/payloads/message';
import { phoneNumberFields, type PlatformPhoneNumber } from '#shared/platform/payloads/phone-number';

/** An error answered by the Graph API, with the platform's code and title (what it means: shared/platform/error-codes.ts). */
export class PlatformError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly title: string,
    /** The platform's `error_subcode` and `error_data.details`, kept on the failed message. */
    readonly subcode?: number,
    readonly details?: string,
    /** The platform's own `message` and, for management calls, its `error_user_msg` (what it tells a person to do). */
    readonly explanation: { message?: string; userMessage?: string } = {},
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

/** How long a Graph API call may take; GRAPH_TIMEOUT_MS shortens it in tests. */
const requestTimeoutMs = () => env.graphTimeoutMs;

/**
 * The platform did not answer. `ambiguous` when the request may have reached it (a time-out, a
 * connection dropped mid-way): whether it acted is unknown, so it must not be repeated blindly.
 */
export class PlatformUnreachable extends Error {
  readonly ambiguous: boolean;

  constructor(cause: unknown) {
    const code = ((cause as { cause?: { code?: string } }).cause ?? (cause as { code?: string }))?.code;
    // fetch says only "fetch failed" (its cause has the code): the network's own code says what happened (and whether it may have reached the platform).
    super(`Graph API unreachable: ${(cause as Error).message}${code ? ` (${code})` : ''}`);
    this.name = 'PlatformUnreachable';
    this.ambiguous = mayHaveReachedPlatform(code);
  }
}

type GraphMethod = 'GET' | 'POST' | 'DELETE';

interface GraphErrorBody {
  error?: { code?: number; message?: string; error_user_title?: string; error_user_msg?: string; error_subcode?: number; error_data?: { details?: string } };
}

/** A Graph API error answer as a PlatformError, with the platform's code, title and messages. */
export function platformErrorOf(status: number, answer: GraphErrorBody): PlatformError {
  const { error } = answer;
  const details = typeof error?.error_data?.details === 'string' ? error.error_data.details : undefined;
  return new PlatformError(status, error?.code ?? status, error?.error_user_title ?? error?.message ?? 'Unknown error', error?.error_subcode, details, {
    message: error?.message,
    userMessage: error?.error_user_msg,
  });
}

/** One Graph API call with the token as Bearer; a JSON `body` is sent for POST. */
export async function graphRequest<T>(url: string, token: string, body?: unknown, method: GraphMethod = body === undefined ? 'GET' : 'POST'): Promise<T> {
  let response: GraphResponse;
  try {
    response = await graphHttp(url, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: requestTimeoutMs(),
    });
  } catch (error) {
    throw new PlatformUnreachable(error);
  }
  return graphAnswer<T>(response);
}

/** The JSON of a Graph answer, or its error as a PlatformError. */
export async function graphAnswer<T>(response: GraphResponse): Promise<T> {
  let answer: GraphErrorBody;
  try {
    answer = (await response.json()) as GraphErrorBody;
  } catch (error) {
    // An accepted request whose answer could not be read: whether the platform acted is unknown.
    if (response.ok) throw new PlatformUnreachable(error);
    answer = {};
  }
  if (!response.ok) throw platformErrorOf(response.status, answer);
  return answer as T;
}

/** The Graph API base with its version, for a path: `{base}/{version}/{path}`. */
export const graphUrl = (path: string): string => `${env.graphApiBaseUrl}/${env.graphApiVersion}/${path}`;

/** The platform's answer to a send: its message id, the recipient's WhatsApp id, and `message_status` when it gave one. */
export interface SendAnswer {
  id: string;
  waId?: string;
  messageStatus?: string;
}

/** POST /{version}/{phone_number_id}/messages (docs/platform-requests.md). */
export async function sendPlatformMessage(phoneNumberId: string, token: string, message: OutgoingMessage): Promise<SendAnswer> {
  const answer = await graphRequest<{ contacts?: { wa_id?: string }[]; messages?: { id: string; message_status?: string }[] }>(
    `${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(phoneNumberId)}/messages`,
    token,
    messageBody(message),
  );
  const [sent] = answer.messages ?? [];
  if (!sent?.id) throw new PlatformUnreachable(new Error('The platform answered 200 without a message id'));
  return { id: sent.id, waId: answer.contacts?.[0]?.wa_id, messageStatus: sent.message_status };
}

/** `GET /{phone-number-id}`: the number as the platform knows it (docs/numbers.md). */
export const fetchPhoneNumber = (phoneNumberId: string, token: string): Promise<PlatformPhoneNumber> =>
  graphRequest(`${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(phoneNumberId)}?fields=${phoneNumberFields(env.graphApiVersion)}`, token);

/**
 * `GET /{waba-id}/phone_numbers`: the ids of the numbers the platform lists in a business account
 * (Graph API reference, "WhatsApp Business Account Phone Numbers"), following its cursor paging.
 */
export async function fetchAccountNumberIds(wabaId: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let url: string | undefined = graphUrl(`${encodeURIComponent(wabaId)}/phone_numbers?fields=id&limit=100`);
  while (url) {
    const page: { data?: { id?: string }[]; paging?: { next?: string } } = await graphRequest(url, token);
    for (const number of page.data ?? []) if (typeof number.id === 'string') ids.push(number.id);
    url = page.paging?.next;
  }
  return ids;
}

/** `POST /{waba-id}/subscribed_apps`: the app (this deployment's) receives that business account's webhooks. */
export async function subscribeApp(wabaId: string, token: string): Promise<void> {
  await graphRequest(`${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(wabaId)}/subscribed_apps`, token, {});
}

/**
 * `GET /oauth/access_token?client_id&client_secret&code`: exchanges the code Embedded Signup gave
 * the operator's page for a business token (docs/platform-requests.md, "Onboarding"). The app
 * authenticates with its id and secret, in the query as the platform documents it; the URL is never logged.
 */
export async function exchangeCode(input: { appId: string; appSecret: string; code: string }): Promise<string> {
  const query = new URLSearchParams({ client_id: input.appId, client_secret: input.appSecret, code: input.code });
  let response: Response;
  try {
    response = await fetch(`${graphUrl('oauth/access_token')}?${query}`, { signal: AbortSignal.timeout(requestTimeoutMs()) });
  } catch (error) {
    throw new PlatformUnreachable(error);
  }
  const answer = await graphAnswer<{ access_token?: string }>(response);
  if (typeof answer.access_token !== 'string' || !answer.access_token)
    throw new PlatformUnreachable(new Error('The platform answered without an access token'));
  return answer.access_token;
}

/** `POST /{phone-number-id}/register`: the number is registered for the Cloud API, with its two-step verification PIN. */
export async function registerNumber(phoneNumberId: string, token: string, pin: string): Promise<void> {
  await graphRequest(graphUrl(`${encodeURIComponent(phoneNumberId)}/register`), token, { messaging_product: 'whatsapp', pin });
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

/** `GET /{media_id}`: where the platform keeps a customer's media (a short-lived url) and what it is. */
export interface PlatformMediaObject {
  url: string;
  mime_type: string;
  sha256: string | null;
  file_size: number | null;
}

/** A media file may be large (documents up to 100 MB); MEDIA_DOWNLOAD_TIMEOUT_MS shortens the wait in tests. */
const mediaDownloadTimeoutMs = () => env.mediaDownloadTimeoutMs;

export async function fetchMediaObject(mediaId: string, token: string): Promise<PlatformMediaObject> {
  const answer = await graphRequest<Record<string, unknown>>(`${env.graphApiBaseUrl}/${env.graphApiVersion}/${encodeURIComponent(mediaId)}`, token);
  const { url, mime_type, sha256, file_size } = answer;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof mime_type !== 'string') {
    throw new PlatformError(200, 0, 'The platform answered malformed media metadata');
  }
  const size = Number(file_size);
  return {
    url,
    mime_type,
    sha256: typeof sha256 === 'string' && sha256 ? hexSha256(sha256) : null,
    file_size: Number.isFinite(size) && size >= 0 ? size : null,
  };
}

/** The media's bytes, from the url `fetchMediaObject` gave, with the same token. */
export async function downloadMedia(url: string, token: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(mediaDownloadTimeoutMs()) });
    if (!response.ok) throw new PlatformError(response.status, response.status, `The media download answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof PlatformError) throw error;
    throw new PlatformUnreachable(error);
  }
}
