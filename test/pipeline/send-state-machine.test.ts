/**
 * The send job's decisions (docs/messaging.md §2), one transition at a time: pure, no table, queue
 * or platform. What the steps then write is covered by the pipeline tests beside this one.
 */
import { nextStep, type MessageSendState, type Outcome, type SendLimits, type SendState } from '#shared/domain/messages/send-state-machine';
import { asksToSlowDown, mayPassLater, sendRefusal } from '#shared/platform/error-codes';

const NOW = Date.parse('2026-05-04T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const limits: SendLimits = { maxAttempts: 3, ambiguousWaitMs: 10 * MINUTE, backoffScale: 1, firstProbeMs: MINUTE, pauseProbeScale: 1 };
const queued = (fields: Partial<MessageSendState> = {}): MessageSendState => ({
  status: 'queued',
  provider_message_id: null,
  created_at: iso(NOW - MINUTE),
  ...fields,
});
const state = (fields: Partial<SendState> = {}): SendState => ({ message: queued(), now: NOW, probing: false, limits, jitter: 0, ...fields });
const step = (outcome: Outcome, fields: Partial<SendState> = {}) => nextStep(state(fields), outcome);
const withMessage = (outcome: Outcome, message: Partial<MessageSendState>, fields: Partial<SendState> = {}) =>
  step(outcome, { ...fields, message: queued(message) });

const refused = (refusal: ReturnType<typeof sendRefusal>, title = 'Refused') => ({ event: 'refused', refusal, error: { code: 131000, title } }) as const;

describe('the send state machine', () => {
  describe('reading the message', () => {
    it('ends the job for a message that is gone, no longer queued, or already has a platform id', () => {
      expect(step({ event: 'message_read' }, { message: undefined })).toEqual({ do: 'done' });
      for (const status of ['sent', 'delivered', 'read', 'failed']) expect(withMessage({ event: 'message_read' }, { status })).toEqual({ do: 'done' });
      // Accepted but held by the platform: its report moves it.
      expect(withMessage({ event: 'message_read' }, { provider_message_id: 'wamid.1' })).toEqual({ do: 'done' });
    });

    it('reads the workspace of a queued message, and ends without one', () => {
      expect(step({ event: 'message_read' })).toEqual({ do: 'read_workspace' });
      expect(step({ event: 'workspace_read', found: false })).toEqual({ do: 'done' });
      expect(step({ event: 'workspace_read', found: true })).toEqual({ do: 'check_pause' });
    });

    it('looks again when another worker holds a fresh claim, once that claim would be stale', () => {
      expect(withMessage({ event: 'workspace_read', found: true }, { claim: { at: NOW - 30_000 } })).toEqual({ do: 'look_again', delaySeconds: 91 });
      expect(withMessage({ event: 'workspace_read', found: true }, { claim: { at: NOW - 120_000 } })).toEqual({ do: 'look_again', delaySeconds: 1 });
    });

    it("holds a message whose claim is stale as a send of unknown outcome, from the claim's time", () => {
      expect(withMessage({ event: 'workspace_read', found: true }, { claim: { at: NOW - 3 * MINUTE } })).toEqual({
        do: 'hold_ambiguous',
        since: 'claim',
        delaySeconds: 7 * 60,
      });
      // Older than the whole wait: it comes back at once (at least a second).
      expect(withMessage({ event: 'workspace_read', found: true }, { claim: { at: NOW - HOUR } })).toEqual({
        do: 'hold_ambiguous',
        since: 'claim',
        delaySeconds: 1,
      });
    });

    it("waits for the platform's report after an unknown outcome, then sends once more or fails with the attempts used up", () => {
      expect(withMessage({ event: 'workspace_read', found: true }, { ambiguous_since: iso(NOW - 4 * MINUTE) })).toEqual({
        do: 'look_again',
        delaySeconds: 6 * 60,
      });
      expect(withMessage({ event: 'workspace_read', found: true }, { ambiguous_since: iso(NOW - 10 * MINUTE), attempts: 2 })).toEqual({ do: 'check_pause' });
      expect(withMessage({ event: 'workspace_read', found: true }, { ambiguous_since: iso(NOW - 10 * MINUTE), attempts: 3 })).toEqual({
        do: 'fail',
        error: { code: 'send_failed', title: 'The platform did not answer, nor report the message' },
      });
    });
  });

  describe('before the claim', () => {
    it("waits out a paused number until its next probe, at most 15 minutes, and gives up with the pause's error", () => {
      expect(step({ event: 'pause_checked', gate: { kind: 'wait', ms: 90_500 } })).toEqual({ do: 'look_again', delaySeconds: 91 });
      expect(step({ event: 'pause_checked', gate: { kind: 'wait', ms: 2 * HOUR } })).toEqual({ do: 'look_again', delaySeconds: 15 * 60 });
      const pause = { code: 131031, title: 'Account locked', since: iso(NOW - 25 * HOUR), probe_at: NOW, probes: 4 };
      expect(step({ event: 'pause_checked', gate: { kind: 'give_up', pause } })).toEqual({ do: 'fail', error: { code: 131031, title: 'Account locked' } });
      expect(step({ event: 'pause_checked', gate: { kind: 'send', probing: true } })).toEqual({ do: 'take_slot' });
    });

    it('claims with a send slot, looks again in a second without one, and ends when the claim is lost', () => {
      expect(step({ event: 'slot_taken', taken: true })).toEqual({ do: 'claim' });
      expect(step({ event: 'slot_taken', taken: false })).toEqual({ do: 'look_again', delaySeconds: 1 });
      expect(step({ event: 'claimed', won: true })).toEqual({ do: 'read_campaign' });
      expect(step({ event: 'claimed', won: false })).toEqual({ do: 'done' });
    });
  });

  describe('under the claim, before the call', () => {
    it('fails the message of a cancelled campaign, and checks the opt-out of a marketing one', () => {
      expect(step({ event: 'campaign_read', cancelled: true, marketing: true, window: null, budget: { kind: 'none' } })).toEqual({
        do: 'fail',
        error: { code: 'campaign_cancelled', title: 'The campaign was cancelled before this message was sent' },
      });
      expect(step({ event: 'campaign_read', cancelled: false, marketing: true, window: null, budget: { kind: 'none' } })).toEqual({ do: 'read_opt_out' });
      expect(step({ event: 'opt_out_read', optedOut: true, window: null, budget: { kind: 'none' } })).toEqual({
        do: 'fail',
        error: { code: 'recipient_opted_out', title: 'The recipient opted out of marketing messages' },
      });
    });

    it('waits for a closed send window on the queue when it opens soon, else holds the message for it', () => {
      const soon = { kind: 'delay', seconds: 4 } as const;
      const later = { kind: 'hold', opensAt: iso(NOW + HOUR) } as const;
      expect(step({ event: 'campaign_read', cancelled: false, marketing: false, window: soon, budget: { kind: 'none' } })).toEqual({
        do: 'wait',
        for: 'window',
        delaySeconds: 4,
      });
      expect(step({ event: 'campaign_read', cancelled: false, marketing: false, window: later, budget: { kind: 'none' } })).toEqual({
        do: 'hold_for_window',
        opensAt: iso(NOW + HOUR),
      });
      expect(step({ event: 'opt_out_read', optedOut: false, window: later, budget: { kind: 'none' } })).toEqual({
        do: 'hold_for_window',
        opensAt: iso(NOW + HOUR),
      });
      expect(step({ event: 'campaign_read', cancelled: false, marketing: false, window: null, budget: { kind: 'none' } })).toEqual({ do: 'build_request' });
      expect(step({ event: 'opt_out_read', optedOut: false, window: null, budget: { kind: 'none' } })).toEqual({ do: 'build_request' });
    });

    it('reserves a budgeted message last, once its window is open; over the budget the campaign pauses; paused, its messages wait (contract §20)', () => {
      const check = { kind: 'check' } as const;
      expect(step({ event: 'campaign_read', cancelled: false, marketing: false, window: null, budget: check })).toEqual({ do: 'reserve_budget' });
      expect(step({ event: 'opt_out_read', optedOut: false, window: null, budget: check })).toEqual({ do: 'reserve_budget' });
      expect(step({ event: 'campaign_read', cancelled: false, marketing: false, window: { kind: 'delay', seconds: 4 }, budget: check })).toEqual({
        do: 'wait',
        for: 'window',
        delaySeconds: 4,
      });
      expect(step({ event: 'budget_checked', within: true })).toEqual({ do: 'build_request' });
      expect(step({ event: 'budget_checked', within: false })).toEqual({ do: 'pause_campaign', delaySeconds: 60 });
      const paused = { kind: 'wait', ms: MINUTE } as const;
      expect(step({ event: 'campaign_read', cancelled: false, marketing: true, window: null, budget: paused })).toEqual({
        do: 'wait',
        for: 'budget',
        delaySeconds: 60,
      });
      // A cancel fails what waits.
      expect(step({ event: 'campaign_read', cancelled: true, marketing: false, window: null, budget: paused })).toEqual(
        expect.objectContaining({ do: 'fail' }),
      );
    });

    it('calls the platform with the request built; a broken rule fails the message, anything else gives the claim back', () => {
      expect(step({ event: 'request_built' })).toEqual({ do: 'call_platform' });
      expect(step({ event: 'rule_broken', error: { code: 'template_not_found', title: 'No template welcome in en_US' } })).toEqual({
        do: 'fail',
        error: { code: 'template_not_found', title: 'No template welcome in en_US' },
      });
      expect(step({ event: 'failed_before_call' })).toEqual({ do: 'rethrow', release: true });
    });
  });

  describe("the platform's answer", () => {
    it('records the send, or only the platform id while the platform holds the message; a probe that went through resumes the number', () => {
      expect(step({ event: 'accepted', held: false })).toEqual({ do: 'record_sent', resume: false });
      expect(step({ event: 'accepted', held: true })).toEqual({ do: 'keep_platform_id', resume: false });
      expect(step({ event: 'accepted', held: false }, { probing: true })).toEqual({ do: 'record_sent', resume: true });
    });

    it('pauses the number on an account error, the message waiting uncounted for the first probe, which stays paused', () => {
      expect(step(refused('account', 'Token expired'), { probing: true })).toEqual({
        do: 'pause_number',
        error: { code: 131000, title: 'Token expired' },
        delaySeconds: 60,
      });
    });

    it("waits out the throughput limit with a growing wait (1 s to 30 s), and the pair limit for the recipient's next slot", () => {
      expect(step(refused('throughput'))).toEqual({ do: 'wait', for: 'throughput', delaySeconds: 1, resume: false });
      expect(withMessage(refused('throughput'), { waits: 3 })).toEqual({ do: 'wait', for: 'throughput', delaySeconds: 8, resume: false });
      expect(withMessage(refused('throughput'), { waits: 9 }, { jitter: 0.5 })).toEqual({ do: 'wait', for: 'throughput', delaySeconds: 45, resume: false });
      expect(step(refused('throughput'), { limits: { ...limits, backoffScale: 0.01 } })).toEqual({
        do: 'wait',
        for: 'throughput',
        delaySeconds: 1,
        resume: false,
      });
      expect(step(refused('pair_limit'), { probing: true })).toEqual({ do: 'wait', for: 'pair_slot', resume: true });
    });

    it("fails a message paced for over a day with send_failed, counted from its window's opening when it was held", () => {
      const old = { created_at: iso(NOW - 25 * HOUR) };
      expect(withMessage(refused('pair_limit', 'Pair rate limit hit'), old)).toEqual({
        do: 'fail',
        error: { code: 'send_failed', title: 'Pair rate limit hit' },
        resume: false,
      });
      expect(withMessage(refused('throughput'), { ...old, window_opens_at: iso(NOW - HOUR) })).toMatchObject({ do: 'wait', for: 'throughput' });
    });

    it('retries a passing fault with back-off while attempts are left, then fails it with send_failed and the last title', () => {
      expect(step(refused('retryable'))).toEqual({ do: 'retry', delaySeconds: 4, resume: false });
      expect(withMessage(refused('retryable'), { attempts: 1 }, { jitter: 0.5 })).toEqual({ do: 'retry', delaySeconds: 9, resume: false });
      expect(withMessage(refused('retryable', 'Service unavailable'), { attempts: 2 }, { probing: true })).toEqual({
        do: 'fail',
        error: { code: 'send_failed', title: 'Service unavailable' },
        resume: true,
      });
    });

    it("fails the message with the platform's own error for any other refusal", () => {
      const error = { code: 131026, title: 'Message undeliverable', subcode: 2494010, details: 'Not on WhatsApp' };
      expect(step({ event: 'refused', refusal: 'final', error })).toEqual({ do: 'fail', error, resume: false });
    });

    it('holds a call that may have reached the platform for its report, and retries one that cannot have', () => {
      expect(step({ event: 'unreachable', ambiguous: true, title: 'timed out' }, { probing: true })).toEqual({
        do: 'hold_ambiguous',
        since: 'now',
        delaySeconds: 600,
      });
      expect(step({ event: 'unreachable', ambiguous: false, title: 'ECONNREFUSED' })).toEqual({ do: 'retry', delaySeconds: 4, resume: false });
      expect(withMessage({ event: 'unreachable', ambiguous: false, title: 'Graph API unreachable: ECONNREFUSED' }, { attempts: 2 })).toEqual({
        do: 'fail',
        error: { code: 'send_failed', title: 'Graph API unreachable: ECONNREFUSED' },
        resume: false,
      });
    });

    it('keeps the claim when the call threw something unknown: the platform may have acted', () => {
      expect(step({ event: 'unexpected' })).toEqual({ do: 'rethrow', release: false });
    });
  });
});

describe("what the platform's error codes mean", () => {
  it('weighs a refusal: account first, then pace, then passing faults', () => {
    expect(sendRefusal(401, 190)).toBe('account');
    expect(sendRefusal(400, 131031)).toBe('account');
    expect(sendRefusal(400, 130429)).toBe('throughput');
    expect(sendRefusal(400, 131056)).toBe('pair_limit');
    for (const code of [1, 2, 4, 80007, 131000, 131016, 131057]) expect(sendRefusal(400, code)).toBe('retryable');
    expect(sendRefusal(429, 100)).toBe('retryable');
    expect(sendRefusal(503, 100)).toBe('retryable');
    for (const code of [100, 131026, 131047, 131049, 131051, 132000]) expect(sendRefusal(400, code)).toBe('final');
    // An answer that is no error (a 2xx without a message id) is no account error, whatever its code.
    expect(sendRefusal(200, 0)).toBe('final');
  });

  it('names the answers that ask to slow down, and the failures a campaign retry may pass', () => {
    expect([130429, 131056, 4, 80007].every((code) => asksToSlowDown(400, code))).toBe(true);
    expect(asksToSlowDown(429, 100)).toBe(true);
    expect(asksToSlowDown(500, 131000)).toBe(false);
    expect(mayPassLater(131049)).toBe(true);
    expect(mayPassLater(131000)).toBe(true);
    expect(mayPassLater(131026)).toBe(false);
  });
});
