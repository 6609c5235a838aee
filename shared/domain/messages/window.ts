import { lastInboundAt, recordInbound } from '#shared/data/window';
import { errors } from '#shared/errors';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';

const WINDOW_MS = 24 * 3600 * 1000;
/** The window's record outlives the window a little. */
const RECORD_GRACE_MS = 3600 * 1000;

/** The first number's windows keep their key from before several numbers (data/window.ts). */
const scopeOf = (workspace: Workspace, businessNumberId: string) => (businessNumberId === firstNumberOf(workspace) ? undefined : businessNumberId);

/** Free-form messages go only to a customer who wrote to this business number in the last 24 hours (contract §17). */
export async function requireOpenWindow(workspace: Workspace, businessNumberId: string, digits: string, now = Date.now()): Promise<void> {
  const last = await lastInboundAt(workspace.id, digits, scopeOf(workspace, businessNumberId));
  if (now - (last ? Date.parse(last) : 0) > WINDOW_MS) {
    throw errors.refused('session_window_closed', 'No message from this number to the sending number in the last 24 hours: send a template message instead');
  }
}

/** An inbound message opens (or extends) the customer's window with the number it was sent to. */
export const openWindow = (workspace: Workspace, businessNumberId: string, digits: string, at: string): Promise<void> =>
  recordInbound(workspace.id, digits, scopeOf(workspace, businessNumberId), at, new Date(Date.parse(at) + WINDOW_MS + RECORD_GRACE_MS));
