import { afterAttempt, DEACTIVATE_AFTER_MS, MAX_ATTEMPTS } from '#shared/domain/subscriber-webhooks/retry-policy';

const failed = (statusCode: number | null, retryAfterSeconds: number | null = null) => ({ ok: false, statusCode, retryAfterSeconds });
const NOW = Date.parse('2026-11-22T10:00:00.000Z');

describe('webhook retry schedule (fake clock)', () => {
  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then fails', () => {
    const delays = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const outcome = afterAttempt(attempt, failed(500), NOW - 1000, NOW);
      expect(outcome.kind).toBe('retry');
      delays.push((outcome as { delaySeconds: number }).delaySeconds);
    }
    expect(delays).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(afterAttempt(MAX_ATTEMPTS, failed(500), NOW - 1000, NOW)).toEqual({ kind: 'failed' });
  });

  it('honours Retry-After on 429, 502 and 504 when it asks for longer, never sooner than the schedule', () => {
    expect(afterAttempt(1, failed(429, 120), null, NOW)).toEqual({ kind: 'retry', delaySeconds: 120 });
    expect(afterAttempt(1, failed(502, 60), null, NOW)).toEqual({ kind: 'retry', delaySeconds: 60 });
    expect(afterAttempt(1, failed(504, 2), null, NOW)).toEqual({ kind: 'retry', delaySeconds: 5 });
    expect(afterAttempt(2, failed(500, 3600), null, NOW)).toEqual({ kind: 'retry', delaySeconds: 300 });
  });

  it('deactivates on 410 and after five days of failures', () => {
    expect(afterAttempt(1, failed(410), null, NOW)).toEqual({ kind: 'deactivate' });
    expect(afterAttempt(3, failed(503), NOW - DEACTIVATE_AFTER_MS, NOW)).toEqual({ kind: 'deactivate' });
    expect(afterAttempt(3, failed(503), NOW - DEACTIVATE_AFTER_MS + 1, NOW).kind).toBe('retry');
    expect(afterAttempt(3, failed(null), null, NOW).kind).toBe('retry');
  });

  it('succeeds on any 2xx', () => {
    expect(afterAttempt(4, { ok: true, statusCode: 204, retryAfterSeconds: null }, NOW - 1000, NOW)).toEqual({ kind: 'succeeded' });
  });
});
