import { endPause, getPause, recordPause, takeProbe, type NumberPause } from '#shared/data/number-pause';
import { logger } from '#shared/logger';
import { countMetric } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';
import { env } from '#shared/config';

/*
 * A number's sending paused by an account-level error (contract §16); which errors those are:
 * `isAccountError` in shared/platform/error-codes.ts.
 */

/** How long messages wait before failing with the account error's code. */
export const PAUSE_GIVE_UP_MS = 24 * 3600_000;

/** Minutes between probes: 1, 2, 4, 8, then every 15. PAUSE_PROBE_SCALE shortens them in tests. */
export const probeIntervalMs = (probes: number) => Math.min(15, 2 ** probes) * 60_000 * env.testScales.pauseProbe;

export type PauseDecision = { kind: 'send'; probing: boolean } | { kind: 'wait'; ms: number } | { kind: 'give_up'; pause: NumberPause };

/**
 * Whether a message of this number may go now: yes when sending is not paused; during a pause,
 * only the one message that takes the probe, when the probe is due; a message older than a day
 * gives up. Others wait until the next probe.
 */
export async function pauseDecision(phoneNumberId: string, createdAt: string, read?: NumberPause | null, now = Date.now()): Promise<PauseDecision> {
  // Read already (null: not paused), or read now.
  const pause = read === undefined ? await getPause(phoneNumberId) : (read ?? undefined);
  if (!pause) return { kind: 'send', probing: false };
  if (now - Date.parse(createdAt) > PAUSE_GIVE_UP_MS) return { kind: 'give_up', pause };
  if (now < pause.probe_at) return { kind: 'wait', ms: pause.probe_at - now };
  if (await takeProbe(phoneNumberId, pause, now + probeIntervalMs(pause.probes + 1))) return { kind: 'send', probing: true };
  return { kind: 'wait', ms: probeIntervalMs(pause.probes + 1) };
}

/**
 * An account-level error: sending pauses for the number, or stays paused after a failed probe
 * (the alarm's metric NumbersPaused, and the `NumberPaused` log line with the error).
 */
export async function pauseNumber(phoneNumberId: string, error: { code: number | string; title: string }, now = Date.now()): Promise<void> {
  await recordPause(phoneNumberId, error, new Date(now).toISOString(), now + probeIntervalMs(0));
  countMetric(BusinessMetric.NumbersPaused);
  logger.error('NumberPaused', { phoneNumberId, code: error.code, title: error.title });
}

/** A send went through while the number was paused (the probe): everything resumes. */
export async function resumeNumber(phoneNumberId: string): Promise<void> {
  await endPause(phoneNumberId);
  logger.info('NumberResumed', { phoneNumberId });
}

/** The pause of a number, if its sending is paused (a campaign's `paused_reason`). */
export const currentPause = (phoneNumberId: string): Promise<NumberPause | undefined> => getPause(phoneNumberId);
