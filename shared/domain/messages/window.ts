import { lastInboundAt, recordInbound } from '#shared/data/window';
import { errors } from '#shared/errors';

const WINDOW_MS = 24 * 3600 * 1000;
/** The window's record outlives the window a little. */
const RECORD_GRACE_MS = 3600 * 1000;

/** Free-form text is allowed only within 24 hours of the number's last inbound message. */
export async function requireOpenWindow(ws: string, digits: string, now = Date.now()): Promise<void> {
  const last = await lastInboundAt(ws, digits);
  if (now - (last ? Date.parse(last) : 0) > WINDOW_MS) {
    throw errors.refused('session_window_closed', 'No message from this number in the last 24 hours: send a template message instead');
  }
}

/** An inbound message opens (or extends) the number's window. */
export const openWindow = (ws: string, digits: string, at: string): Promise<void> =>
  recordInbound(ws, digits, at, new Date(Date.parse(at) + WINDOW_MS + RECORD_GRACE_MS));
