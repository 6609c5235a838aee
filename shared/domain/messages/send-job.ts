import { randomUUID } from 'node:crypto';
import { getCampaign } from '#shared/data/campaign';
import { optedOutPhones } from '#shared/data/contact-claims';
import { getMessage, type StoredMessage } from '#shared/data/message';
import { claimForSend, holdAmbiguous, recordProviderId, releaseClaim } from '#shared/data/message-status';
import { approvedTemplate } from '#shared/domain/templates/catalog';
import { prepareTemplate } from '#shared/domain/templates/parameters';
import type { Template } from '#shared/records/template';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { DomainError } from '#shared/errors';
import { applyStatus } from '#shared/domain/messages/status';
import { slowDown, takeSendSlot } from '#shared/domain/messages/send-rate';
import { pairLimitDelayMs } from '#shared/domain/messages/pair-pace';
import { isAccountError, MAX_PAUSE_WAIT_MS, pauseDecision, pauseNumber, probeIntervalMs, resumeNumber } from '#shared/domain/messages/number-pause';
import { sessionKinds } from '#shared/domain/messages/kinds/registry';
import type { SessionKindName } from '#shared/domain/messages/kinds/names';
import { PlatformError, PlatformUnreachable, sendPlatformMessage, type OutgoingMessage } from '#shared/platform/graph-client';
import { accessTokenFor } from '#shared/platform/secrets';
import { logger } from '#shared/logger';
import { countMetric } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';
import { nowIso } from '#shared/time';
import type { JobOutcome } from '#shared/sqs-worker';
import type { MessageError } from '#shared/records/message';
import { RECIPIENT_OPTED_OUT } from '#shared/domain/messages/opt-out';
import { holdClaimed, windowOpening, windowWait } from '#shared/domain/campaigns/window-wait';
import { env } from '#shared/config';

export interface SendJob {
  workspace_id: string;
  message_id: string;
}


/** A claim older than this belongs to a worker that died during its platform call. */
const STALE_CLAIM_MS = 120_000;
/** Platform calls per message before a retryable failure becomes final. */
const maxAttempts = () => env.maxSendAttempts;
/** How long a send of unknown outcome waits for the platform's report before it is sent once more (contract §14); AMBIGUOUS_WAIT_SECONDS shortens it in tests. */
const ambiguousWaitMs = () => env.ambiguousWaitMs;
const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Growing back-off with jitter: about 4 s, 8 s, 16 s … capped at 15 minutes. SEND_BACKOFF_SCALE shortens it in tests. */
const backoffSeconds = (attempt: number) => (Math.min(900, 2 ** (attempt + 1)) + Math.random() * 2) * env.testScales.sendBackoff;
/** After a 130429 the number is slowed down; the message itself comes back after 1 s, 2 s, 4 s … at most 30 s (jittered; never sooner than 1 s, so a number refused for long is not polled in a loop). */
const throttledWaitSeconds = (waits: number) => Math.max(1, Math.min(30, 2 ** waits) * (1 + Math.random()) * env.testScales.sendBackoff);
/** How long a message may wait out the platform's pace (130429, 131056) before it fails with `send_failed` (contract §14). */
const MAX_PACED_WAIT_MS = 24 * 3600_000;
/** The platform's answers about pace, not about the message: the number's throughput, and the pair rate limit. */
const THROUGHPUT_REACHED = 130429;
const PAIR_LIMIT_REACHED = 131056;
/** Every platform answer that asks us to slow down: the two above, and the application's and the account's call rate limits. */
const SLOW_DOWN_CODES = new Set([THROUGHPUT_REACHED, PAIR_LIMIT_REACHED, 4, 80007]);
const asksToSlowDown = (error: unknown) => error instanceof PlatformError && (error.httpStatus === 429 || SLOW_DOWN_CODES.has(error.code));
/** The platform's `message_status` answers for a message it accepted but has not sent (docs/decisions.md). */
const NOT_SENT_YET = new Set(['held_for_quality_assessment', 'paused']);

const done: JobOutcome = { kind: 'done' };

/**
 * The template part of the platform request, built from the message's accepted parameters and the
 * template they were checked against: the campaign's copy from its launch, or the workspace's
 * template. Built at send time rather than stored, which keeps the message item small. A template
 * that is gone or no longer fits is a domain error, so the message fails with its code.
 */
async function templateObject(message: StoredMessage, launched: Template | undefined) {
  const template = launched ?? (await approvedTemplate(message.workspace_id, message.template_name!, message.language!));
  // A message queued by the version before rich templates has its positional values only.
  const { header, variables, buttons } = message.template_parameters ?? { header: null, variables: (message as { variables?: string[] }).variables ?? [], buttons: [] };
  const { components } = prepareTemplate(template, { variables, header: header ?? undefined, buttons });
  return { name: template.name, language: { code: template.language }, ...(components.length && { components }) };
}

/** The platform's `type`, its object and the quoted message: the template's, or the session kind's. */
async function platformRequest(message: StoredMessage, launched: Template | undefined): Promise<Omit<OutgoingMessage, 'to' | 'callbackData'>> {
  // A reaction names its message itself; the platform takes no `context` with it.
  const replyTo = message.message_type === 'reaction' ? undefined : message.context?.provider_message_id;
  if (message.message_type === 'template') return { type: 'template', object: await templateObject(message, launched), replyTo };
  return { type: message.message_type, object: sessionKinds[message.message_type as SessionKindName].platformObject(message), replyTo };
}

/** The platform's refusal as the message keeps it: code, title, and the platform's subcode and details when it gave them. */
const refusal = (error: PlatformError): MessageError => ({
  code: error.code,
  title: error.title,
  ...(error.subcode !== undefined && { subcode: error.subcode }),
  ...(error.details && { details: error.details }),
});

/**
 * Why a send failed for good; undefined for anything unexpected (the job is retried). A refusal
 * keeps the platform's code; retries used up (rate limits, faults, silence) are `send_failed`
 * with the last platform error as the title (contract §14).
 */
function finalFailure(error: unknown, retryable: boolean): MessageError | undefined {
  const title = error instanceof PlatformError ? error.title : error instanceof PlatformUnreachable ? error.message : undefined;
  if (title === undefined) return undefined;
  if (retryable) return { code: 'send_failed', title };
  return refusal(error as PlatformError);
}

/**
 * One send job: at most one platform call per message at a time, whatever SQS re-delivers and
 * however many workers race (see docs/messaging.md). Retryable platform answers release the claim
 * and come back with back-off; a call of unknown outcome (a time-out, a worker that died during it)
 * waits for the platform's report, and only without one is the message sent once more; used-up
 * retries fail it with `send_failed`, every other error with the platform's code and title.
 */
export async function processSendJob(job: SendJob): Promise<JobOutcome> {
  const message = await getMessage(job.workspace_id, job.message_id, true);
  // A platform id on a queued message: the platform holds it for quality assessment, and its report moves it (contract §16).
  if (!message || message.status !== 'queued' || message.provider_message_id) return done;
  const attempt = (message.attempts ?? 0) + 1;
  const workspace = await cachedWorkspace(job.workspace_id);
  if (!workspace) return done;
  if (message.claim) {
    const age = Date.now() - message.claim.at;
    // Another worker is calling the platform: look again once its claim would be stale.
    if (age <= STALE_CLAIM_MS) return { kind: 'retry', delaySeconds: Math.ceil((STALE_CLAIM_MS - age) / 1000) + 1 };
    // Its worker died mid-call: whether the platform got it is unknown, as after a time-out.
    await holdAmbiguous(message, message.claim.token, new Date(message.claim.at).toISOString());
    return { kind: 'retry', delaySeconds: secondsUntil(ambiguousWaitMs() - age) };
  }
  if (message.ambiguous_since) {
    // A report with our id moves the message out of `queued` (and this job ends above); none yet: wait on.
    const waited = Date.now() - Date.parse(message.ambiguous_since);
    if (waited < ambiguousWaitMs()) return { kind: 'retry', delaySeconds: secondsUntil(ambiguousWaitMs() - waited) };
    if (attempt > maxAttempts()) {
      await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: { code: 'send_failed', title: 'The platform did not answer, nor report the message' } });
      return done;
    }
    // No report came: it is sent once more.
  }
  // An account-level error paused the number: only its probe goes, the others wait (contract §16).
  // Time held for a send window is no wait on the platform: the limits below count from the opening.
  const sendableSince = message.window_opens_at && message.window_opens_at > message.created_at ? message.window_opens_at : message.created_at;
  const gate = await pauseDecision(workspace.phone_number_id, sendableSince);
  if (gate.kind === 'wait') return { kind: 'retry', delaySeconds: secondsUntil(Math.min(gate.ms, MAX_PAUSE_WAIT_MS)) };
  if (gate.kind === 'give_up') {
    await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: { code: gate.pause.code, title: gate.pause.title } });
    return done;
  }
  const accessToken = await accessTokenFor(workspace.id);
  if (!(await takeSendSlot(workspace.phone_number_id))) return { kind: 'retry', delaySeconds: 1 };
  const token = randomUUID();
  if (!(await claimForSend(message, token))) return done;
  let request: Awaited<ReturnType<typeof platformRequest>>;
  try {
    // A test send renders as its campaign's messages do: from the campaign's copy of the template.
    const campaignId = message.campaign_id ?? message.test_of_campaign;
    const campaign = campaignId ? await getCampaign(workspace.id, campaignId, false) : undefined;
    // Checked under the claim, so no other worker is sending this message while it is failed.
    if (message.campaign_id && campaign?.status === 'cancelled') {
      await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: { code: 'campaign_cancelled', title: 'The campaign was cancelled before this message was sent' } });
      return done;
    }
    // A number that opted out after the fan-out stored its message ends as if at the launch (contract §15).
    if (message.campaign_id && campaign?.template?.category === 'MARKETING' && (await optedOutPhones(workspace.id, [message.phone_number])).has(message.phone_number)) {
      await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: RECIPIENT_OPTED_OUT });
      return done;
    }
    // Outside its send window the message waits for the window (contract §15), with its claim given back.
    const opening = message.campaign_id && campaign ? windowOpening(campaign, message, Date.now()) : null;
    if (opening !== null) {
      const wait = windowWait(opening, Date.now());
      if (wait.kind === 'delay') {
        await releaseClaim(message, token, true);
        return { kind: 'retry', delaySeconds: wait.seconds };
      }
      await holdClaimed(campaign!, message, token, wait.opensAt);
      return done;
    }
    request = await platformRequest(message, campaign?.template);
  } catch (error) {
    if (error instanceof DomainError) {
      await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: { code: error.code, title: error.message } });
      return done;
    }
    // The platform was not called: give the message back, so the job's retry sends it.
    await releaseClaim(message, token);
    throw error;
  }

  try {
    const { id: providerMessageId, messageStatus } = await sendPlatformMessage(workspace.phone_number_id, accessToken, {
      to: message.phone_number,
      callbackData: message.id,
      ...request,
    });
    if (messageStatus && NOT_SENT_YET.has(messageStatus)) {
      // Accepted but not sent yet (contract §16): the message keeps the platform's id and stays queued until a report moves it.
      await recordProviderId(message, providerMessageId);
    } else {
      // The claim held the message in `queued` until now: the copy read before it is current, unless a report overtook this write.
      const applied = await applyStatus(workspace.id, message.id, { status: 'sent', at: nowIso(), providerMessageId }, message);
      if (!applied?.changed) await recordProviderId(message, providerMessageId);
    }
    if (gate.probing) await resumeNumber(workspace.phone_number_id);
    return done;
  } catch (error) {
    if (asksToSlowDown(error)) countMetric(BusinessMetric.PlatformThrottled);
    // A probe the platform judged on the message itself (not the account) shows the account works again.
    if (gate.probing && error instanceof PlatformError && !isAccountError(error.httpStatus, error.code)) await resumeNumber(workspace.phone_number_id);
    if (error instanceof PlatformError && isAccountError(error.httpStatus, error.code)) {
      // Not this message's fault: it waits, uncounted, with every other of its number.
      await pauseNumber(workspace.phone_number_id, refusal(error));
      await releaseClaim(message, token, true);
      return { kind: 'retry', delaySeconds: secondsUntil(probeIntervalMs(0)) };
    }
    if (error instanceof PlatformError && (error.code === THROUGHPUT_REACHED || error.code === PAIR_LIMIT_REACHED)) {
      // Pace, not the message: it waits uncounted, the number slows down, or this recipient's next slot is reserved (contract §14).
      if (Date.now() - Date.parse(sendableSince) > MAX_PACED_WAIT_MS) {
        await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: { code: 'send_failed', title: error.title } });
        return done;
      }
      let delaySeconds = throttledWaitSeconds(message.waits ?? 0);
      if (error.code === PAIR_LIMIT_REACHED) delaySeconds = secondsUntil(await pairLimitDelayMs(workspace.phone_number_id, message.phone_number));
      else await slowDown(workspace.phone_number_id);
      await releaseClaim(message, token, true);
      return { kind: 'retry', delaySeconds };
    }
    if (error instanceof PlatformUnreachable && error.ambiguous) {
      // The platform may have the message: it is not sent again before its report has had time to come.
      logger.warn('Platform send of unknown outcome, awaiting its report', { messageId: message.id, attempt, error: error.message });
      await holdAmbiguous(message, token, nowIso());
      return { kind: 'retry', delaySeconds: secondsUntil(ambiguousWaitMs()) };
    }
    const retryable = error instanceof PlatformUnreachable || (error instanceof PlatformError && error.retryable);
    if (retryable && attempt < maxAttempts()) {
      logger.warn('Platform send failed, will retry', { messageId: message.id, attempt, error: (error as Error).message });
      await releaseClaim(message, token);
      return { kind: 'retry', delaySeconds: backoffSeconds(attempt) };
    }
    const failure = finalFailure(error, retryable);
    if (!failure) throw error;
    await applyStatus(workspace.id, message.id, { status: 'failed', at: nowIso(), error: failure });
    return done;
  }
}
