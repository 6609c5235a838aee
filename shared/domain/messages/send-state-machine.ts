import type { WindowWait } from '#shared/domain/campaigns/window-wait';
import { CAMPAIGN_CANCELLED, RECIPIENT_OPTED_OUT } from '#shared/domain/messages/failures';
import type { MessageError } from '#shared/records/message';
import type { PauseDecision } from '#shared/domain/messages/number-pause';
import type { SendRefusal } from '#shared/platform/error-codes';

/**
 * The send job's state machine (docs/messaging.md §2), written down once and pure: given what
 * the job has seen of its message, its number and the platform, `nextStep` says what happens
 * next. The job (send-job.ts) runs the step it names, reads or writes what that step needs, and
 * comes back with the outcome; only the steps touch the table, the queue or the platform.
 *
 * In order: read the message, read its workspace, check the number's pause, take a send slot,
 * claim the message, read its campaign (and the recipient's opt-out), build the platform request,
 * call the platform. Any of them may end the job instead: done, look again later, wait, retry
 * with back-off, fail, or hold the message as a send of unknown outcome.
 */

/** A claim older than this belongs to a worker that died during its platform call (its function times out at 60 s). */
export const STALE_CLAIM_MS = 120_000;
/** The longest a message waiting out a paused number sleeps before looking again. */
export const MAX_PAUSE_WAIT_MS = 15 * 60_000;
/** How long a message may wait out the platform's pace (130429, 131056) before it fails with `send_failed` (contract §14). */
export const MAX_PACED_WAIT_MS = 24 * 3600_000;

/** What the job reads of its message. */
export interface MessageSendState {
  status: string;
  provider_message_id: string | null;
  /** Platform calls made so far. */
  attempts?: number;
  /** Waits on the platform's pace or a paused number so far. */
  waits?: number;
  claim?: { at: number };
  ambiguous_since?: string;
  created_at: string;
  window_opens_at?: string;
}

/** The settings the decisions read (shared/config.ts). */
export interface SendLimits {
  /** Platform calls per message before a retryable failure becomes final (MAX_SEND_ATTEMPTS). */
  maxAttempts: number;
  /** How long a send of unknown outcome waits for the platform's report before it is sent once more (AMBIGUOUS_WAIT_SECONDS). */
  ambiguousWaitMs: number;
  /** Scales back-offs and paced waits (SEND_BACKOFF_SCALE: shorter in tests). */
  backoffScale: number;
  /** How long a newly paused number waits for its first probe. */
  firstProbeMs: number;
  /** Scales the looks of waiting messages (PAUSE_PROBE_SCALE: shorter in tests). */
  pauseProbeScale: number;
}

export interface SendState {
  /** The message as the job read it, before its claim; undefined when there is none. */
  message: MessageSendState | undefined;
  now: number;
  /** This send takes its paused number's probe. */
  probing: boolean;
  limits: SendLimits;
  /** A draw from [0, 1): the jitter of back-offs. */
  jitter: number;
}

/** What the last step saw. */
export type Outcome =
  | { event: 'message_read' }
  | { event: 'workspace_read'; found: boolean }
  | { event: 'pause_checked'; gate: PauseDecision }
  | { event: 'slot_taken'; taken: boolean }
  | { event: 'claimed'; won: boolean }
  /** Only for messages of a campaign (not its test sends): whether it was cancelled, is marketing, and the send window's wait if it is closed. */
  | { event: 'campaign_read'; cancelled: boolean; marketing: boolean; window: WindowWait | null; budget: BudgetGate }
  | { event: 'opt_out_read'; optedOut: boolean; window: WindowWait | null; budget: BudgetGate }
  /** `within`: its estimate was reserved within the campaign's max_cost; else it would take the campaign over it. */
  | { event: 'budget_checked'; within: boolean }
  | { event: 'request_built' }
  /** A rule of ours refused the message under its claim: its template is gone or no longer fits. */
  | { event: 'rule_broken'; error: MessageError }
  /** Anything else that threw under the claim, before the platform was called. */
  | { event: 'failed_before_call' }
  /** The platform took the message; `held`: it has not sent it yet (held for quality assessment, or paused). */
  | { event: 'accepted'; held: boolean }
  | { event: 'refused'; refusal: SendRefusal; error: MessageError }
  | { event: 'unreachable'; ambiguous: boolean; title: string }
  /** The platform call threw something that is no platform answer. */
  | { event: 'unexpected' };

/**
 * A campaign message's budget (contract §20): `none` (no max_cost), `check` (reserve its estimate
 * before it goes), or `wait` (the campaign is paused by its budget: look again in `ms`).
 */
export type BudgetGate = { kind: 'none' } | { kind: 'check' } | { kind: 'wait'; ms: number };

/** The steps that observe, in their order: each comes back with an outcome. */
const STAGES = [
  'read_message',
  'read_workspace',
  'check_pause',
  'take_slot',
  'claim',
  'read_campaign',
  'read_opt_out',
  'reserve_budget',
  'build_request',
  'call_platform',
] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The steps that end the job. `resume`: the probe of a paused number showed the account works
 * again, and the number resumes. Of the claim: `wait` and `pause_number` give it back with the
 * attempt uncounted, `retry` with it counted, `hold_*` and `fail` end it with their write.
 */
export type Ending =
  | { do: 'done' }
  /** The job comes back later; the message is left as it is. */
  | { do: 'look_again'; delaySeconds: number }
  /** The platform may have the message: it waits for the platform's report, from the claim's time (its worker died) or now (no answer). */
  | { do: 'hold_ambiguous'; since: 'claim' | 'now'; delaySeconds: number }
  | { do: 'fail'; error: MessageError; resume?: boolean }
  /** Outside its send window: held in the window's index until its schedule hands it on. */
  | { do: 'hold_for_window'; opensAt: string }
  | { do: 'wait'; for: 'window' | 'throughput' | 'budget'; delaySeconds: number; resume?: boolean }
  /** Its estimate would take its campaign over max_cost: the campaign pauses (`budget_reached`), the message waits queued. */
  | { do: 'pause_campaign'; delaySeconds: number }
  /** This recipient's pair rate: the message waits for the recipient's next free slot, which the step reserves. */
  | { do: 'wait'; for: 'pair_slot'; resume?: boolean }
  /** An account-level refusal: sending pauses for the number, and the message waits for the first probe. */
  | { do: 'pause_number'; error: MessageError; delaySeconds: number }
  | { do: 'retry'; delaySeconds: number; resume?: boolean }
  | { do: 'record_sent'; resume: boolean }
  /** Accepted, not sent yet: the message keeps the platform's id and stays queued until a report moves it (contract §16). */
  | { do: 'keep_platform_id'; resume: boolean }
  /** Unexpected: the error goes to the queue's redelivery; `release` gives the claim back first (the platform was not called). */
  | { do: 'rethrow'; release: boolean };

export type Step = { do: Stage } | Ending;

const DONE: Ending = { do: 'done' };

export const isStage = (step: Step): step is { do: Stage } => (STAGES as readonly string[]).includes(step.do);

/** Whole seconds to wait for `ms`, at least one. */
export const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** This send's attempt: the platform calls made so far, plus one. */
export const attemptOf = (message: MessageSendState) => (message.attempts ?? 0) + 1;

/** Since when the message may be sent: time held for a send window is no wait on the platform, so its limits count from the opening. */
export const sendableSince = (message: MessageSendState) =>
  message.window_opens_at && message.window_opens_at > message.created_at ? message.window_opens_at : message.created_at;

/** Growing back-off with jitter: about 4 s, 8 s, 16 s … capped at 15 minutes. */
const backoffSeconds = (attempt: number, state: SendState) => (Math.min(900, 2 ** (attempt + 1)) + state.jitter * 2) * state.limits.backoffScale;

/** After a 130429 the message comes back after 1 s, 2 s, 4 s … at most 30 s (jittered; never sooner than 1 s, so a number refused for long is not polled in a loop). */
const throttledWaitSeconds = (waits: number, state: SendState) => Math.max(1, Math.min(30, 2 ** waits) * (1 + state.jitter) * state.limits.backoffScale);

/** How often a message of a campaign that reached its budget looks again, before the resume. */
const budgetWaitSeconds = (gate: BudgetGate) => (gate.kind === 'wait' ? secondsUntil(gate.ms) : 1);

/** A closed send window: waited out on the queue when it opens soon, else held; open, the budget's reservation comes last (nothing is reserved for a message that does not go now). */
function windowStep(window: WindowWait | null, budget: BudgetGate): Step {
  if (window === null) return budget.kind === 'check' ? { do: 'reserve_budget' } : { do: 'build_request' };
  return window.kind === 'delay' ? { do: 'wait', for: 'window', delaySeconds: window.seconds } : { do: 'hold_for_window', opensAt: window.opensAt };
}

/** A message read as queued: a claim or an unknown outcome may make it wait before the pause check. */
function afterRead(message: MessageSendState, state: SendState): Step {
  const { now, limits } = state;
  if (message.claim) {
    const age = now - message.claim.at;
    // Another worker is calling the platform: look again once its claim would be stale.
    if (age <= STALE_CLAIM_MS) return { do: 'look_again', delaySeconds: Math.ceil((STALE_CLAIM_MS - age) / 1000) + 1 };
    // Its worker died mid-call: whether the platform got it is unknown, as after a time-out.
    return { do: 'hold_ambiguous', since: 'claim', delaySeconds: secondsUntil(limits.ambiguousWaitMs - age) };
  }
  if (message.ambiguous_since) {
    // A report with our id moves the message out of `queued` (and the job ends at its read); none yet: wait on.
    const waited = now - Date.parse(message.ambiguous_since);
    if (waited < limits.ambiguousWaitMs) return { do: 'look_again', delaySeconds: secondsUntil(limits.ambiguousWaitMs - waited) };
    if (attemptOf(message) > limits.maxAttempts)
      return { do: 'fail', error: { code: 'send_failed', title: 'The platform did not answer, nor report the message' } };
    // No report came: it is sent once more.
  }
  return { do: 'check_pause' };
}

/** A refusal: the account pauses the number, pace makes the message wait, a passing fault is retried, anything else is final. */
function afterRefusal(refusal: SendRefusal, error: MessageError, message: MessageSendState, state: SendState): Ending {
  // A probe the platform judged on the message itself (not the account) shows the account works again.
  const resume = state.probing && refusal !== 'account';
  switch (refusal) {
    case 'account':
      // Not this message's fault: it waits, uncounted, with every other of its number.
      return { do: 'pause_number', error, delaySeconds: secondsUntil(state.limits.firstProbeMs) };
    case 'throughput':
    case 'pair_limit':
      // Pace, not the message: it waits uncounted, the number slows down, or this recipient's next slot is reserved (contract §14).
      if (state.now - Date.parse(sendableSince(message)) > MAX_PACED_WAIT_MS) return { do: 'fail', error: { code: 'send_failed', title: error.title }, resume };
      if (refusal === 'pair_limit') return { do: 'wait', for: 'pair_slot', resume };
      return { do: 'wait', for: 'throughput', delaySeconds: throttledWaitSeconds(message.waits ?? 0, state), resume };
    case 'retryable':
      return retryOrFail(error.title, message, state, resume);
    case 'final':
      return { do: 'fail', error, resume };
  }
}

/** A passing failure: retried with back-off while attempts are left, then `send_failed` with the last error as its title (contract §14). */
function retryOrFail(title: string, message: MessageSendState, state: SendState, resume: boolean): Ending {
  const attempt = attemptOf(message);
  if (attempt < state.limits.maxAttempts) return { do: 'retry', delaySeconds: backoffSeconds(attempt, state), resume };
  return { do: 'fail', error: { code: 'send_failed', title }, resume };
}

/**
 * At most one platform call per message at a time, whatever SQS re-delivers and however many
 * workers race (docs/messaging.md §3): the call is made only under the message's claim, and a call
 * of unknown outcome is not repeated before the platform's report has had time to come.
 */
export function nextStep(state: SendState, outcome: Extract<Outcome, { event: 'rule_broken' | 'failed_before_call' }>): Ending;
export function nextStep(state: SendState, outcome: Outcome): Step;
export function nextStep(state: SendState, outcome: Outcome): Step {
  const message = state.message;
  if (outcome.event === 'message_read') {
    // A platform id on a queued message: the platform holds it for quality assessment, and its report moves it (contract §16).
    return !message || message.status !== 'queued' || message.provider_message_id ? DONE : { do: 'read_workspace' };
  }
  if (!message) throw new Error(`The send job saw ${outcome.event} before its message`);
  switch (outcome.event) {
    case 'workspace_read':
      return outcome.found ? afterRead(message, state) : DONE;
    case 'pause_checked': {
      // An account-level error paused the number: only its probe goes, the others wait (contract §16).
      const { gate } = outcome;
      if (gate.kind === 'wait') return { do: 'look_again', delaySeconds: secondsUntil(Math.min(gate.ms, MAX_PAUSE_WAIT_MS)) };
      if (gate.kind === 'give_up') return { do: 'fail', error: { code: gate.pause.code, title: gate.pause.title } };
      return { do: 'take_slot' };
    }
    case 'slot_taken':
      // No slot within its waits: pacing, not failure, so no attempt is used.
      return outcome.taken ? { do: 'claim' } : { do: 'look_again', delaySeconds: 1 };
    case 'claimed':
      // Lost: another worker holds it, or it moved on.
      return outcome.won ? { do: 'read_campaign' } : DONE;
    case 'campaign_read':
      // Checked under the claim, so no other worker is sending this message while it is failed.
      if (outcome.cancelled) return { do: 'fail', error: CAMPAIGN_CANCELLED };
      // Paused by its budget: it waits queued, uncounted, until a resume (contract §20).
      if (outcome.budget.kind === 'wait') return { do: 'wait', for: 'budget', delaySeconds: budgetWaitSeconds(outcome.budget) };
      // A number that opted out after the fan-out stored its message ends as if at the launch (contract §15).
      if (outcome.marketing) return { do: 'read_opt_out' };
      return windowStep(outcome.window, outcome.budget);
    case 'opt_out_read':
      return outcome.optedOut ? { do: 'fail', error: RECIPIENT_OPTED_OUT } : windowStep(outcome.window, outcome.budget);
    case 'budget_checked':
      return outcome.within ? { do: 'build_request' } : { do: 'pause_campaign', delaySeconds: secondsUntil(60_000 * state.limits.pauseProbeScale) };
    case 'request_built':
      return { do: 'call_platform' };
    case 'rule_broken':
      return { do: 'fail', error: outcome.error };
    case 'failed_before_call':
      // The platform was not called: the message is given back, so the job's retry sends it.
      return { do: 'rethrow', release: true };
    case 'accepted':
      return outcome.held ? { do: 'keep_platform_id', resume: state.probing } : { do: 'record_sent', resume: state.probing };
    case 'refused':
      return afterRefusal(outcome.refusal, outcome.error, message, state);
    case 'unreachable':
      // The platform may have the message: it is not sent again before its report has had time to come.
      if (outcome.ambiguous) return { do: 'hold_ambiguous', since: 'now', delaySeconds: secondsUntil(state.limits.ambiguousWaitMs) };
      // It failed before the request left (connection refused, DNS): a passing failure.
      return retryOrFail(outcome.title, message, state, false);
    case 'unexpected':
      // The claim stays: the platform may have acted, so the message is left to the stale-claim rule above.
      return { do: 'rethrow', release: false };
  }
}
