import { env } from '#shared/config';
import type { PauseDecision } from '#shared/domain/messages/number-pause';
import type { Workspace } from '#shared/records/workspace';

/** How often a waiting message looks again: every minute in the first hour of a suspension, then every 15 minutes. */
const FIRST_HOUR_MS = 3600_000;
const EARLY_LOOK_MS = 60_000;
const LATE_LOOK_MS = 15 * 60_000;

/**
 * A suspended workspace's messages wait (contract §19), through the send job's pause check, as a
 * paused number's do (§16): they stay queued, uncounted, and go at their first look after the
 * workspace is unsuspended. Unlike a number pause there is no probe and no giving up.
 * PAUSE_PROBE_SCALE shortens the looks in tests, as it does the probes.
 */
export function suspensionGate(workspace: Workspace, now = Date.now()): PauseDecision | undefined {
  if (!workspace.suspended) return undefined;
  const since = workspace.suspended_at ? Date.parse(workspace.suspended_at) : now;
  const ms = now - since < FIRST_HOUR_MS ? EARLY_LOOK_MS : LATE_LOOK_MS;
  return { kind: 'wait', ms: ms * env.testScales.pauseProbe };
}
