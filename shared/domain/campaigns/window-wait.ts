import { getCampaign } from '#shared/data/campaign';
import { holdForWindow } from '#shared/data/message-claim';
import { waitingMessagesPage } from '#shared/data/message-list';
import { mapLimit } from '#shared/concurrency';
import { enqueue, queueUrl } from '#shared/queue-client';
import { scheduleWindowResume } from '#shared/scheduler';
import type { Message } from '#shared/records/message';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import type { Campaign } from '#shared/records/campaign';
import { nextOpening } from '#shared/domain/campaigns/send-window';

/**
 * A window that opens sooner than this is waited out on the send queue, not held: a message is
 * held at least this long before the schedule that hands it on fires, so the schedule always
 * finds it.
 */
const HOLD_MARGIN_MS = 5_000;

/** When the campaign's send window next opens for this message (its contact's zone, else the window's); null when it is open or there is none. */
export function windowOpening(campaign: Pick<Campaign, 'send_window'>, message: Pick<Message, 'time_zone'>, now: number): number | null {
  const window = campaign.send_window;
  return window ? nextOpening(window, message.time_zone ?? window.time_zone, now) : null;
}

/** A closed window's wait: held until the opening (with a schedule to hand it on), or, when it opens within the margin, waited out on the queue. */
export type WindowWait = { kind: 'hold'; opensAt: string } | { kind: 'delay'; seconds: number };

export function windowWait(opening: number, now: number): WindowWait {
  return opening - now > HOLD_MARGIN_MS
    ? { kind: 'hold', opensAt: new Date(opening).toISOString() }
    : { kind: 'delay', seconds: Math.max(1, Math.ceil((opening - now) / 1000)) };
}

/**
 * New campaign messages whose window is closed are stored held (no send job is made for them), and
 * each distinct opening gets its resume schedule first, so the schedule exists before any message waits on it.
 */
export async function holdClosedWindow(campaign: Campaign, messages: Message[], now: number): Promise<Message[]> {
  if (!campaign.send_window) return messages;
  const held = messages.map((message) => {
    const opening = message.status === 'queued' ? windowOpening(campaign, message, now) : null;
    const wait = opening === null ? null : windowWait(opening, now);
    return wait?.kind === 'hold' ? { ...message, window_opens_at: wait.opensAt } : message;
  });
  const openings = new Set(held.flatMap((message) => (message.window_opens_at ? [Date.parse(message.window_opens_at)] : [])));
  await Promise.all([...openings].map((at) => scheduleWindowResume({ workspace_id: campaign.workspace_id, campaign_id: campaign.id }, at)));
  return held;
}

/** The send worker's hold of a claimed message: it leaves the queue and waits in the window's index for its schedule. */
export async function holdClaimed(campaign: Campaign, message: Message, token: string, opensAt: string): Promise<void> {
  await scheduleWindowResume({ workspace_id: campaign.workspace_id, campaign_id: campaign.id }, Date.parse(opensAt));
  await holdForWindow(message, token, opensAt);
}

/** How long one resume hands messages on before it leaves the rest to another (its function's time-out is 300 s). */
const RESUME_BUDGET_MS = 200_000;

/** SendMessageBatch calls in flight while a resume hands messages on. */
const ENQUEUE_CONCURRENCY = 16;

/** Beyond every opening: a cancelled campaign hands on all its held messages. */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/**
 * The window's resume (run by its schedule): every message of the campaign held for an opening
 * up to now gets its send job again; the send worker checks the window once more as it sends.
 * Of a cancelled campaign, every held message, which the send worker then fails `campaign_cancelled`.
 */
export async function resumeHeldMessages(ws: string, campaignId: string): Promise<number> {
  const started = Date.now();
  const until = (await getCampaign(ws, campaignId))?.status === 'cancelled' ? END_OF_TIME : new Date(started).toISOString();
  let startKey: Record<string, unknown> | undefined;
  let resumed = 0;
  do {
    if (Date.now() - started > RESUME_BUDGET_MS) {
      // Too many to hand on in one run: another resume a minute on goes over them again (a message
      // handed on twice is sent once: its claim), well before this function's time-out could drop the rest.
      await scheduleWindowResume({ workspace_id: ws, campaign_id: campaignId }, Date.now() + 60_000);
      break;
    }
    const page = await waitingMessagesPage(ws, campaignId, until, startKey);
    const jobs = page.ids.map((message_id): SendJob => ({ workspace_id: ws, message_id, campaign_id: campaignId }));
    // SendMessageBatch takes 10: batches in flight side by side.
    const batches = Array.from({ length: Math.ceil(jobs.length / 10) }, (_, i) => jobs.slice(i * 10, i * 10 + 10));
    await mapLimit(batches, ENQUEUE_CONCURRENCY, (batch) => enqueue(queueUrl('send'), batch));
    resumed += page.ids.length;
    startKey = page.next;
  } while (startKey);
  return resumed;
}

/**
 * `paused_until` in the results (contract §15): while the window is closed in every zone the
 * audience is read in, when it next opens in one of them; null while it is open in any.
 */
export function pausedUntil(campaign: Campaign, now: number): string | null {
  const window = campaign.send_window;
  if (campaign.status !== 'running' || !window) return null;
  // No zone yet (a segment still resolved in the background, with no other recipient): the window's own.
  const zones = campaign.window_zones?.length ? campaign.window_zones : [window.time_zone];
  const openings = zones.map((zone) => nextOpening(window, zone, now));
  return openings.includes(null) ? null : new Date(Math.min(...(openings as number[]))).toISOString();
}
