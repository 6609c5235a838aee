/**
 * The Graph API's Resumable Upload API, which gives a template's media header example its handle
 * (docs/templates.md §5): `POST /{app-id}/uploads?file_length=&file_type=` opens a session
 * (`{ id: "upload:…" }`), then `POST /{session-id}` with `Authorization: OAuth {token}`,
 * `file_offset: 0` and the bytes answers the handle (`{ h: "…" }`).
 */
import { env } from '#shared/config';
import { graphAnswer, graphRequest, graphUrl, PlatformUnreachable } from '#shared/platform/graph-client';

/** Media uploads are larger than API calls; the download time-out bounds them too. */
const uploadTimeoutMs = () => env.mediaDownloadTimeoutMs;

/** The platform answered 200 without what the step promises: whether it acted is unknown. */
const malformed = (what: string) => new PlatformUnreachable(new Error(`The platform answered the upload without ${what}`));

async function openSession(appId: string, token: string, length: number, mimeType: string): Promise<string> {
  const query = new URLSearchParams({ file_length: String(length), file_type: mimeType });
  const answer = await graphRequest<{ id?: unknown }>(graphUrl(`${encodeURIComponent(appId)}/uploads?${query}`), token, undefined, 'POST');
  if (typeof answer.id !== 'string' || !answer.id.startsWith('upload:')) throw malformed('a session id');
  return answer.id;
}

async function sendBytes(sessionId: string, token: string, bytes: Uint8Array): Promise<string> {
  let response: Response;
  try {
    response = await fetch(graphUrl(sessionId), {
      method: 'POST',
      // The upload step is documented with the OAuth scheme, unlike the rest of the Graph API.
      headers: { Authorization: `OAuth ${token}`, file_offset: '0', 'Content-Type': 'application/octet-stream' },
      body: bytes,
      signal: AbortSignal.timeout(uploadTimeoutMs()),
    });
  } catch (error) {
    throw new PlatformUnreachable(error);
  }
  const answer = await graphAnswer<{ h?: unknown }>(response);
  if (typeof answer.h !== 'string' || !answer.h) throw malformed('a file handle');
  return answer.h;
}

/** Uploads a file in one piece and answers its handle, for `example.header_handle`. */
export async function uploadForHandle(appId: string, token: string, file: { bytes: Uint8Array; mimeType: string }): Promise<string> {
  const sessionId = await openSession(appId, token, file.bytes.length, file.mimeType);
  return sendBytes(sessionId, token, file.bytes);
}
