import { randomBytes } from 'node:crypto';
import { graphErrors } from '#simulator/graph-error';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** The file types the Resumable Upload API takes (Meta, "Upload a file"). */
export const UPLOAD_TYPES = ['application/pdf', 'image/jpeg', 'image/jpg', 'image/png', 'video/mp4'];

interface Session {
  length: number;
  type: string;
  /** Bytes received so far: where the next `file_offset` must start. */
  offset: number;
}

/**
 * The Graph API's resumable upload sessions (`POST /{app-id}/uploads`, then `POST /upload:…`):
 * a session expects the declared number of bytes from offset 0, and the completed upload's
 * handle is what a template's media header example names (`header_handle`).
 */
export class UploadSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly handles = new Map<string, string>();

  open(length: number, type: string): string {
    if (!Number.isInteger(length) || length < 1) throw whatsappErrors.invalidParameter('file_length must be a positive integer.');
    if (!UPLOAD_TYPES.includes(type)) throw whatsappErrors.invalidParameter(`file_type must be one of ${UPLOAD_TYPES.join(', ')}.`);
    const id = `upload:${randomBytes(24).toString('base64url')}`;
    this.sessions.set(id, { length, type, offset: 0 });
    return id;
  }

  /** Takes bytes at `offset`; answers the file handle once the declared length has arrived. */
  receive(id: string, offset: number, bytes: Buffer): { h: string } | { id: string; file_offset: number } {
    const session = this.sessions.get(id);
    if (!session) throw graphErrors.unsupportedRequest('POST', id);
    if (!Number.isInteger(offset) || offset !== session.offset)
      throw whatsappErrors.invalidParameter(`file_offset must be ${session.offset}, where this upload session stands.`);
    if (session.offset + bytes.length > session.length) throw whatsappErrors.invalidParameter("More bytes than the session's file_length.");
    session.offset += bytes.length;
    if (session.offset < session.length) return { id, file_offset: session.offset };
    this.sessions.delete(id);
    const handle = `4::${Buffer.from(session.type).toString('base64')}:${randomBytes(24).toString('base64url')}`;
    this.handles.set(handle, session.type);
    return { h: handle };
  }

  /** The type of the file a handle names, if the simulator issued it. */
  typeOf(handle: string): string | undefined {
    return this.handles.get(handle);
  }

  /** `GET /upload:…`: where an interrupted upload stands. */
  status(id: string): { id: string; file_offset: number } {
    const session = this.sessions.get(id);
    if (!session) throw graphErrors.unsupportedRequest('GET', id);
    return { id, file_offset: session.offset };
  }
}
