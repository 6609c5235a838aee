import { createHash } from 'node:crypto';
import {
  claimIdempotencyRecord,
  completeIdempotencyRecord,
  readIdempotencyRecord,
  unlockIdempotencyRecord,
  type IdempotencyScope,
} from '#shared/data/idempotency-record';
import type { DomainError, ErrorDetail } from '#shared/errors';
import { HttpError, httpErrors, type ErrorCode } from '#shared/http/errors';
import type { HttpResult } from '#shared/http/responses';
import { newId } from '#shared/ids';
import { epochSeconds } from '#shared/time';

/** Longer than any function's time-out: a record still in flight after this belongs to an attempt that crashed. */
const LOCK_SECONDS = 60;

export type { IdempotencyScope };

/** The first attempt's outcome: its result, or the client error it ended with. */
type Outcome = { result: HttpResult } | { error: { code: string; message: string; details?: ErrorDetail[] } };

export type Begin =
  /** Run the request; `resourceId` is the id of what it creates, the same for every attempt of this key. */
  { kind: 'proceed'; resourceId: string } | { kind: 'replay'; outcome: Outcome };

/** Same key, same request: method, path and body (keys sorted) hashed. */
export function fingerprint(path: string, body: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  return createHash('sha256')
    .update(`${path}\n${JSON.stringify(canonical(body ?? null))}`)
    .digest('hex');
}

/**
 * Claims the key for this request, or says why not. A record left in flight by an attempt that
 * crashed is taken over once its lock lapses, keeping its resource id, so the retry finishes
 * the same work instead of doing it twice.
 */
export async function beginIdempotent(scope: IdempotencyScope, requestFingerprint: string): Promise<Begin> {
  const now = epochSeconds();
  const existing = await readIdempotencyRecord(scope);
  const live = existing && Number(existing.expires_at) > now;
  if (live && existing.fingerprint !== requestFingerprint) throw httpErrors.idempotencyKeyReused();
  if (live && existing.state === 'done') return { kind: 'replay', outcome: existing.outcome as Outcome };
  if (live && Number(existing.locked_until) > now) throw httpErrors.idempotencyKeyInUse();
  const resourceId = (live && existing.resource_id) || newId();
  const claimed = await claimIdempotencyRecord(
    scope,
    { fingerprint: requestFingerprint, resource_id: resourceId, attempt: Number(existing?.attempt ?? 0) + 1, locked_until: now + LOCK_SECONDS },
    existing,
    now,
  );
  if (!claimed) return beginIdempotent(scope, requestFingerprint);
  return { kind: 'proceed', resourceId };
}

export const completeIdempotent = (scope: IdempotencyScope, outcome: Outcome): Promise<void> => completeIdempotencyRecord(scope, outcome);

/**
 * An unexpected failure stores no outcome but lifts the lock: the client may retry at once, and
 * the retry keeps the resource id, so work the failed attempt did write is finished, not repeated.
 */
export const releaseIdempotent = (scope: IdempotencyScope): Promise<void> => unlockIdempotencyRecord(scope);

export const outcomeOf = {
  result: (result: HttpResult): Outcome => ({ result }),
  error: (error: DomainError<string>): Outcome => ({ error: { code: error.code, message: error.message, ...(error.details && { details: error.details }) } }),
};

export function replayError(outcome: Extract<Outcome, { error: unknown }>): HttpError {
  const { code, message, details } = outcome.error;
  return new HttpError(code as ErrorCode, message, details, { 'Idempotent-Replayed': 'true' });
}
