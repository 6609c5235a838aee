import { holdAmbiguous, recordProviderId, releaseClaim } from '#shared/data/message-claim';
import { holdClaimed } from '#shared/domain/campaigns/window-wait';
import { pauseForBudget } from '#shared/domain/campaigns/budget';
import { pauseNumber, resumeNumber } from '#shared/domain/messages/number-pause';
import { pairLimitDelayMs } from '#shared/domain/messages/pair-pace';
import { customerKey, recipientOf } from '#shared/domain/messages/recipient';
import { slowDown } from '#shared/domain/messages/send-rate';
import { attemptOf, secondsUntil, type Ending } from '#shared/domain/messages/send-state-machine';
import { sendingNumber, type SendRun } from '#shared/domain/messages/send-job-steps';
import { applyStatus } from '#shared/domain/messages/status';
import { logger } from '#shared/logger';
import type { JobOutcome } from '#shared/sqs-worker';
import { nowIso } from '#shared/time';

const DONE: JobOutcome = { kind: 'done' };
const comeBackIn = (delaySeconds: number): JobOutcome => ({ kind: 'retry', delaySeconds });

/** A send went through, or was judged on the message itself, while its number was paused: the number resumes. */
async function resumeIf(resume: boolean | undefined, run: SendRun) {
  if (resume) await resumeNumber(sendingNumber(run));
}

type Endings = { [K in Ending['do']]: (run: SendRun, step: Extract<Ending, { do: K }>) => Promise<JobOutcome> };

/** The steps that end a job: they write what send-state-machine.ts decided, and say when the job comes back. */
const endings: Endings = {
  done: async () => DONE,

  look_again: async (_run, step) => comeBackIn(step.delaySeconds),

  async hold_ambiguous(run, step) {
    const message = run.message!;
    if (step.since === 'claim') {
      await holdAmbiguous(message, message.claim!.token, new Date(message.claim!.at).toISOString());
    } else {
      logger.warn('Platform send of unknown outcome, awaiting its report', {
        messageId: message.id,
        attempt: attemptOf(message),
        error: (run.error as Error).message,
      });
      await holdAmbiguous(message, run.token!, nowIso(), run.budgetReserved);
    }
    return comeBackIn(step.delaySeconds);
  },

  async fail(run, step) {
    await resumeIf(step.resume, run);
    await applyStatus(run.workspace!.id, run.message!.id, { status: 'failed', at: nowIso(), error: step.error });
    return DONE;
  },

  async hold_for_window(run, step) {
    await holdClaimed(run.campaign!, run.message!, run.token!, step.opensAt);
    return DONE;
  },

  async wait(run, step) {
    await resumeIf(step.resume, run);
    const phoneNumberId = sendingNumber(run);
    let delaySeconds: number;
    if (step.for === 'pair_slot') delaySeconds = secondsUntil(await pairLimitDelayMs(phoneNumberId, customerKey(recipientOf(run.message!))));
    else {
      if (step.for === 'throughput') await slowDown(phoneNumberId);
      delaySeconds = step.delaySeconds;
    }
    await releaseClaim(run.message!, run.token!, true, run.budgetReserved);
    return comeBackIn(delaySeconds);
  },

  async pause_number(run, step) {
    await pauseNumber(sendingNumber(run), step.error);
    await releaseClaim(run.message!, run.token!, true, run.budgetReserved);
    return comeBackIn(step.delaySeconds);
  },

  async pause_campaign(run, step) {
    await pauseForBudget(run.campaign!);
    await releaseClaim(run.message!, run.token!, true);
    return comeBackIn(step.delaySeconds);
  },

  async retry(run, step) {
    await resumeIf(step.resume, run);
    logger.warn('Platform send failed, will retry', { messageId: run.message!.id, attempt: attemptOf(run.message!), error: (run.error as Error).message });
    await releaseClaim(run.message!, run.token!, false, run.budgetReserved);
    return comeBackIn(step.delaySeconds);
  },

  async record_sent(run, step) {
    const message = run.message!;
    const providerMessageId = run.answer!.id;
    // The claim held the message in `queued` until now: the copy read before it is current, unless a report overtook this write.
    const applied = await applyStatus(run.workspace!.id, message.id, { status: 'sent', at: nowIso(), providerMessageId }, message);
    // A report that overtook this write recorded the platform's id with its move: nothing is left to write then.
    if (!applied?.changed && applied?.message.provider_message_id !== providerMessageId) await recordProviderId(message, providerMessageId);
    await resumeIf(step.resume, run);
    return DONE;
  },

  async keep_platform_id(run, step) {
    await recordProviderId(run.message!, run.answer!.id);
    await resumeIf(step.resume, run);
    return DONE;
  },

  async rethrow(run, step) {
    if (step.release) await releaseClaim(run.message!, run.token!, false, run.budgetReserved);
    throw run.error;
  },
};

export const end = (run: SendRun, step: Ending): Promise<JobOutcome> => endings[step.do](run, step as never);
