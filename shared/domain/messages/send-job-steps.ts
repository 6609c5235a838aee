import { randomUUID } from 'node:crypto';
import { getCampaign } from '#shared/data/campaign';
import { optedOutPhones, optedOutUsers } from '#shared/data/contact-claims';
import { recipientOf } from '#shared/domain/messages/recipient';
import { PHONE_NUMBER_REQUIRED } from '#shared/domain/messages/failures';
import type { StoredMessage } from '#shared/data/message';
import { readForSend, type SendReads } from '#shared/data/send-reads';
import { claimForSend } from '#shared/data/message-claim';
import type { Campaign } from '#shared/records/campaign';
import { windowOpening, windowWait } from '#shared/domain/campaigns/window-wait';
import { budgetWaitMs, reserveBudget, waitsForBudget } from '#shared/domain/campaigns/budget';
import type { MessageError } from '#shared/records/message';
import { pauseDecision } from '#shared/domain/messages/number-pause';
import { suspensionGate } from '#shared/domain/messages/suspension';
import { platformRequest } from '#shared/domain/messages/platform-request';
import { namedTemplate, templateRead } from '#shared/domain/messages/send-template';
import { takeSendSlot } from '#shared/domain/messages/send-rate';
import { sendableSince, type BudgetGate, type Outcome, type Stage } from '#shared/domain/messages/send-state-machine';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { cachedNumbers } from '#shared/domain/numbers/numbers';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';
import { countMetric } from '#shared/metrics';
import { BusinessMetric } from '#shared/metrics-catalog';
import { acceptedNotSent, asksToSlowDown, sendRefusal } from '#shared/platform/error-codes';
import { PlatformError, PlatformUnreachable, sendPlatformMessage, type SendAnswer } from '#shared/platform/graph-client';
import type { OutgoingMessage } from '#shared/platform/payloads/message';
import { accessTokenFor } from '#shared/platform/secrets';

/** What one run of a send job has read and holds, step by step. */
export interface SendRun {
  job: SendJob;
  /** The first read: the message, and what the job named beside it; when it was made (epoch ms). */
  read?: SendReads;
  readAt?: number;
  message?: StoredMessage;
  workspace?: Workspace;
  /** The pause check gave this send its number's probe. */
  probing: boolean;
  accessToken?: string;
  /** Our claim's token, once the claim is won. */
  token?: string;
  /** Once the platform is called, the claim is never given back without knowing its outcome (docs/messaging.md §3). */
  phase: 'unclaimed' | 'claimed' | 'called';
  campaign?: Campaign;
  /** The estimate this run reserved on its campaign's budget, recorded on the message when the claim is given back. */
  budgetReserved?: number;
  request?: Omit<OutgoingMessage, 'to' | 'recipient' | 'group' | 'callbackData'>;
  answer?: SendAnswer;
  /** What threw, for the endings that log or rethrow it. */
  error?: unknown;
}

/** "Business-scoped User ID (BSUID) recipients are not supported for this message" (Meta, "Business-scoped user IDs", "Error codes"). */
const USER_ID_NOT_SUPPORTED = 131062;

/** The platform's refusal as the message keeps it: code, title, and the platform's subcode and details when it gave them. */
const refusal = (error: PlatformError): MessageError => ({
  // 131062: a user id where the platform needs the number, the same refusal a send is answered with before it (contract §21).
  code: error.code === USER_ID_NOT_SUPPORTED ? PHONE_NUMBER_REQUIRED.code : error.code,
  title: error.title,
  ...(error.subcode !== undefined && { subcode: error.subcode }),
  ...(error.details && { details: error.details }),
});

/** A failed platform call as the state machine weighs it (what the codes mean: shared/platform/error-codes.ts). */
function failedCall(error: unknown): Outcome {
  if (error instanceof PlatformError) {
    if (asksToSlowDown(error.httpStatus, error.code)) countMetric(BusinessMetric.PlatformThrottled);
    return { event: 'refused', refusal: sendRefusal(error.httpStatus, error.code), error: refusal(error) };
  }
  if (error instanceof PlatformUnreachable) return { event: 'unreachable', ambiguous: error.ambiguous, title: error.message };
  return { event: 'unexpected' };
}

/** Whether the sending number is one its business took back to the WhatsApp Business app (read only after an account-level refusal). */
const backOnTheApp = async (run: SendRun): Promise<boolean> =>
  (await cachedNumbers(run.workspace!)).some((number) => number.id === sendingNumber(run) && number.coexistence?.status === 'app_only');

/** A campaign message's send window, when it is closed now in the message's zone: how it waits. */
function closedWindow(run: SendRun) {
  const opening = run.message!.campaign_id && run.campaign ? windowOpening(run.campaign, run.message!, Date.now()) : null;
  return opening === null ? null : windowWait(opening, Date.now());
}

/** The budget of a campaign message (not of a test send): contract §20. */
function budgetGate(run: SendRun): BudgetGate {
  const own = run.message!.campaign_id ? run.campaign : undefined;
  if (!own?.max_cost) return { kind: 'none' };
  return waitsForBudget(own, run.message!) ? { kind: 'wait', ms: budgetWaitMs(own) } : { kind: 'check' };
}

/** The steps that read (or, the claim and the platform call, write) and come back with what they saw; send-state-machine.ts decides on it. */
/** The business number the message goes out from: its own (contract §17), or, from before several numbers, the workspace's first. */
export const sendingNumber = (run: SendRun): string => run.message!.business_number_id ?? firstNumberOf(run.workspace!);

export const stages: Record<Stage, (run: SendRun) => Promise<Outcome>> = {
  async read_message(run) {
    const { job } = run;
    // A message from the workspace's first number does not name it (storedNumber): its pause is read under the first number.
    // The workspace (cached) also names a single message's template account.
    const workspace = job.business_number_id && !job.template ? undefined : await cachedWorkspace(job.workspace_id);
    const numberId = job.business_number_id ?? (workspace && firstNumberOf(workspace));
    run.read = await readForSend(job.workspace_id, job.message_id, {
      campaignId: job.campaign_id,
      numberId,
      recipientPhone: job.phone_number,
      template: await namedTemplate(workspace, job),
    });
    run.message = run.read.message;
    run.readAt = Date.now();
    return { event: 'message_read' };
  },

  async read_workspace(run) {
    run.workspace = await cachedWorkspace(run.job.workspace_id);
    return { event: 'workspace_read', found: run.workspace !== undefined };
  },

  async check_pause(run) {
    const number = sendingNumber(run);
    const read = number === run.read?.pause?.numberId ? run.read.pause.pause : undefined;
    const gate = suspensionGate(run.workspace!) ?? (await pauseDecision(number, sendableSince(run.message!), read));
    run.probing = gate.kind === 'send' && gate.probing;
    return { event: 'pause_checked', gate };
  },

  /** The access token first, so a secret that cannot be read costs no send slot. */
  async take_slot(run) {
    run.accessToken = await accessTokenFor(run.workspace!.id);
    return { event: 'slot_taken', taken: await takeSendSlot(sendingNumber(run)) };
  },

  async claim(run) {
    const token = randomUUID();
    const won = await claimForSend(run.message!, token);
    if (won) Object.assign(run, { token, phase: 'claimed' });
    return { event: 'claimed', won };
  },

  async read_campaign(run) {
    const message = run.message!;
    // A test send renders as its campaign's messages do: from the campaign's copy of the template.
    const campaignId = message.campaign_id ?? message.test_of_campaign;
    // Read with the message when the job named it (under the claim or a moment before it: either read may be a moment stale).
    const read = campaignId && campaignId === run.job.campaign_id ? run.read?.campaign : undefined;
    run.campaign = campaignId ? (read === undefined ? await getCampaign(run.workspace!.id, campaignId, false) : (read ?? undefined)) : undefined;
    // Only the campaign's own messages are cancelled, opted out or held with it, not its test sends.
    const own = message.campaign_id ? run.campaign : undefined;
    return {
      event: 'campaign_read',
      cancelled: own?.status === 'cancelled',
      marketing: own?.template?.category === 'MARKETING',
      window: closedWindow(run),
      budget: budgetGate(run),
    };
  },

  async read_opt_out(run) {
    const { phone, userId } = recipientOf(run.message!);
    // Read with the message when the job named the number.
    const read = phone && phone === run.job.phone_number ? run.read?.optedOutAt : undefined;
    const optedOut =
      read !== undefined
        ? read !== null
        : (phone ? await optedOutPhones(run.workspace!.id, [phone]) : await optedOutUsers(run.workspace!.id, [userId!])).size > 0;
    return { event: 'opt_out_read', optedOut, window: closedWindow(run), budget: budgetGate(run) };
  },

  async reserve_budget(run) {
    const reserved = await reserveBudget(run.campaign!, run.message!);
    if (typeof reserved === 'number') run.budgetReserved = reserved;
    return { event: 'budget_checked', within: reserved !== false };
  },

  async build_request(run) {
    const template = templateRead(run.message!, run.campaign, run.job, run.read?.template, Date.now() - run.readAt!);
    run.request = await platformRequest(run.message!, template);
    return { event: 'request_built' };
  },

  async call_platform(run) {
    const message = run.message!;
    run.phase = 'called';
    try {
      run.answer = await sendPlatformMessage(sendingNumber(run), run.accessToken!, {
        // The number in `to`, the user id in `recipient` (contract §21): the platform prefers the number.
        ...(message.phone_number && { to: message.phone_number }),
        ...(message.user_id && { recipient: message.user_id }),
        ...(message.platform_group_id && { group: message.platform_group_id }),
        callbackData: message.id,
        ...run.request!,
      });
      return { event: 'accepted', held: acceptedNotSent(run.answer.messageStatus) };
    } catch (error) {
      run.error = error;
      const outcome = failedCall(error);
      // A number whose business went back to the WhatsApp Business app alone (contract §23) stays off the Cloud API: its refusal is final, not a pause.
      if (outcome.event === 'refused' && outcome.refusal === 'account' && (await backOnTheApp(run))) return { ...outcome, refusal: 'final' };
      return outcome;
    }
  },
};
