import { env } from '#shared/config';
import { isDomainError } from '#shared/errors';
import { probeIntervalMs } from '#shared/domain/messages/number-pause';
import { end } from '#shared/domain/messages/send-job-endings';
import { stages, type SendRun } from '#shared/domain/messages/send-job-steps';
import { isStage, nextStep, type SendLimits, type SendState, type Step } from '#shared/domain/messages/send-state-machine';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import type { JobOutcome } from '#shared/sqs-worker';

const limits = (): SendLimits => ({
  maxAttempts: env.maxSendAttempts,
  ambiguousWaitMs: env.ambiguousWaitMs,
  backoffScale: env.testScales.sendBackoff,
  firstProbeMs: probeIntervalMs(0),
  pauseProbeScale: env.testScales.pauseProbe,
});

/**
 * One send job: its steps run in the order the state machine (send-state-machine.ts) names them,
 * each reading what the next decision needs (send-job-steps.ts), until it names an ending, which
 * writes the decision and says when the job comes back (send-job-endings.ts). See
 * docs/messaging.md §2.
 */
export async function processSendJob(job: SendJob): Promise<JobOutcome> {
  const run: SendRun = { job, probing: false, phase: 'unclaimed' };
  const state = (): SendState => ({ message: run.message, now: Date.now(), probing: run.probing, limits: limits(), jitter: Math.random() });
  let step: Step = { do: 'read_message' };
  try {
    while (isStage(step)) {
      const outcome = await stages[step.do](run);
      // The state after the step: what it read is part of it.
      step = nextStep(state(), outcome);
    }
    return await end(run, step);
  } catch (error) {
    // Before the claim nothing is held; once the platform was called, the claim stays (a stale claim is an unknown outcome).
    if (run.phase !== 'claimed') throw error;
    run.error = error;
    const outcome = isDomainError(error)
      ? ({ event: 'rule_broken', error: { code: error.code, title: error.message } } as const)
      : ({ event: 'failed_before_call' } as const);
    return end(run, nextStep(state(), outcome));
  }
}
