import { readAudienceChunk } from '#shared/data/audience-chunk';
import { RECIPIENT_OPTED_OUT } from '#shared/domain/messages/failures';
import { env } from '#shared/config';
import { getCampaign, markFanoutDone } from '#shared/data/campaign';
import { putNewMessage, putNewMessages } from '#shared/data/message';
import { fanoutListShards } from '#shared/data/message-list-shards';
import { markChunkWritten, takeChunk, type ChunkTry } from '#shared/data/chunk-writer';
import { optedOutPhones, optedOutUsers } from '#shared/data/contact-claims';
import { recipientOfKey } from '#shared/domain/messages/recipient';
import { cannotReach } from '#shared/domain/messages/reach';
import { mapLimit } from '#shared/concurrency';
import type { Message, MessageError } from '#shared/records/message';
import { prepareTemplate } from '#shared/domain/templates/parameters';
import type { Template } from '#shared/records/template';
import { approvedTemplateFor } from '#shared/domain/templates/catalog';
import { storedNumber } from '#shared/domain/numbers/numbers';
import { cachedWorkspace } from '#shared/domain/workspaces';
import { enqueue, queueUrl } from '#shared/queue-client';
import { nowIso } from '#shared/time';
import { campaignRounds, roundMessageId } from '#shared/domain/campaigns/campaign';
import type { Campaign, Recipient } from '#shared/records/campaign';
import { retryMessages } from '#shared/domain/campaigns/retry';
import { holdClosedWindow } from '#shared/domain/campaigns/window-wait';
import { abandonPendingSegment, resolvePendingSegment } from '#shared/domain/campaigns/pending-segment';
import { completeIfDone } from '#shared/domain/campaigns/completion';

export interface FanoutJob {
  workspace_id: string;
  campaign_id: string;
  launch_id: string;
  /** A retry round's job (contract §15): it reads the launch's chunks and retries their recipients' transient failures. */
  retry_id?: string;
  chunk: number;
}

const FANOUT_GAVE_UP: MessageError = { code: 'send_failed', title: 'The campaign could not create this message: its fan-out failed on every try' };

/**
 * The chunk's message to one recipient: queued, or failed at once when it is marketing to a number
 * that opted out (contract §13) or to a closed market (§21), or when the fan-out gave up on its chunk (then without a template
 * to render it: rendering may be what failed).
 */
function campaignMessage(campaign: Campaign, template: Template | undefined, recipient: Recipient, error: MessageError | null, now: string): Message {
  // Validated at launch: the recipient's parameters fit the template they were checked against.
  // A chunk written by the version before rich templates has its positional values only.
  const accepted = recipient.t ?? { header: null, variables: (recipient as { v?: string[] }).v ?? [], buttons: [] };
  const { parameters, rendered, content } = template
    ? prepareTemplate(template, { ...accepted, header: accepted.header ?? undefined })
    : { parameters: null, rendered: null, content: '' };
  return {
    id: roundMessageId(campaign, campaignRounds(campaign)[0], recipient.p),
    workspace_id: campaign.workspace_id,
    ...messageRecipient(recipient.p),
    ...(campaign.business_number_id && { business_number_id: campaign.business_number_id }),
    direction: 'outbound',
    status: error ? 'failed' : 'queued',
    message_type: 'template',
    template_name: campaign.template_name,
    language: campaign.language,
    content,
    template_parameters: parameters,
    rendered,
    campaign_id: campaign.id,
    ...(recipient.z && { time_zone: recipient.z }),
    provider_message_id: null,
    error,
    metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: error ? now : null },
    created_at: now,
    updated_at: now,
  };
}

/** A message's `phone_number` and `user_id` from its recipient's key. */
function messageRecipient(key: string): Pick<Message, 'phone_number' | 'user_id'> {
  const { phone, userId } = recipientOfKey(key);
  return { phone_number: phone, ...(userId && { user_id: userId }) };
}

/** Which of the chunk's recipients opted out: numbers by their claims, user ids by theirs. */
async function optedOutKeys(ws: string, recipients: Recipient[]): Promise<Set<string>> {
  const keys = recipients.map((r) => r.p);
  const [phones, users] = await Promise.all([
    optedOutPhones(
      ws,
      keys.filter((key) => recipientOfKey(key).phone),
    ),
    optedOutUsers(
      ws,
      keys.filter((key) => !recipientOfKey(key).phone),
    ),
  ]);
  return new Set([...phones, ...users]);
}

/** Conditional puts in flight at once per fan-out job. */
const PUT_CONCURRENCY = 32;

/**
 * Writes the chunk's messages, each with one conditional put (a message that exists already is
 * left as it is); the table stream counts them in the campaign's metrics and enqueues their sends.
 */
async function putMessages(messages: Message[], listShards: number): Promise<void> {
  await mapLimit(messages, PUT_CONCURRENCY, (message) => putNewMessage(message, listShards));
}

/**
 * One fan-out job: creates the chunk's messages (the table stream then counts them and enqueues
 * their sends), hands the next chunk to a new job, and after the last chunk marks the
 * fan-out done. Every step may run twice without creating or counting anything twice: one job
 * is the chunk's writer (data/chunk-writer.ts). Its first try writes the messages in batches of
 * 25 (none of them can exist yet: issue 29, a conditional put each before); a try after one that
 * may have written some puts each on its condition, as before; another job of the same chunk
 * (its predecessor ran twice), or a second copy of the writer's own delivery, leaves it to the
 * writer, whose queue message comes back until it is done (or is dead-lettered, and
 * failDeadLetteredChunk goes on).
 */
export async function fanOutChunk(job: FanoutJob, attempt: ChunkTry): Promise<void> {
  const campaign = await jobCampaign(job);
  // A workspace being erased creates no more messages.
  if (!campaign || !(await cachedWorkspace(job.workspace_id))) return;
  // Past the launch's chunks with a segment pending: this job resolves it into further chunks.
  if (campaign.segment_pending && job.chunk >= campaign.audience_chunks) return fanOutFrom(job, await resolvePendingSegment(campaign), job.chunk);
  const writer = await takeChunk(job, attempt);
  if (writer === 'other') return;
  if (writer !== 'written') {
    await writeChunk(job, campaign, writer === 'first' ? putNewMessages : putMessages);
    await markChunkWritten(job);
  }
  await continueFanout(job, campaign);
}

/** The chunk's messages, written with `write`. */
async function writeChunk(job: FanoutJob, campaign: Campaign, write: (messages: Message[], listShards: number) => Promise<void>): Promise<void> {
  const recipients = await readAudienceChunk(job.workspace_id, job.campaign_id, job.launch_id, job.chunk);
  // Written before the launch committed: missing means something is badly wrong, so the job fails and is kept.
  if (!recipients) throw new Error(`Audience chunk ${job.chunk} of campaign ${job.campaign_id} is missing`);
  const now = nowIso();
  // A campaign launched before rich templates kept no copy of its template: the current one stands in.
  const template =
    campaign.template ?? (await approvedTemplateFor(campaign.workspace_id, campaign.business_number_id, campaign.template_name, campaign.language));
  const optedOut = template.category === 'MARKETING' ? await optedOutKeys(job.workspace_id, recipients) : new Set<string>();
  // Read once per chunk: the setting is the deployment's.
  const markets = env.closedMarkets;
  const errorOf = (key: string) => (optedOut.has(key) ? RECIPIENT_OPTED_OUT : cannotReach(template, recipientOfKey(key), markets));
  const build = (recipient: Recipient, error: MessageError | null) => campaignMessage(campaign, template, recipient, error, now);
  const messages = job.retry_id
    ? await retryMessages(campaign, recipients, errorOf, build)
    : recipients.map((recipient) => build(recipient, errorOf(recipient.p)));
  // Before the hold: the workspace's first campaign waits here (data/message-list-shards.ts).
  const listShards = await fanoutListShards(job.workspace_id);
  // The hold is decided on the clock as the messages go out, so each is stored well before its opening's schedule fires.
  await write(await holdClosedWindow(campaign, messages, Date.now()), listShards);
}

/** The job's campaign while it runs this job's launch and round; undefined when the job is stale (cancelled, or another round). */
async function jobCampaign(job: FanoutJob): Promise<Campaign | undefined> {
  const campaign = await getCampaign(job.workspace_id, job.campaign_id);
  const current = campaign?.status === 'running' && campaign.launch_id === job.launch_id && campaign.retry_id === job.retry_id;
  return current ? withStoredNumber(campaign) : undefined;
}

/** The campaign as its messages name its number: not at all for the workspace's first (numbers.ts, `storedNumber`). */
async function withStoredNumber(campaign: Campaign): Promise<Campaign> {
  const workspace = campaign.business_number_id ? await cachedWorkspace(campaign.workspace_id) : undefined;
  return workspace ? { ...campaign, business_number_id: storedNumber(workspace, campaign.business_number_id!).business_number_id } : campaign;
}

/** Hands the next chunk to a new job, or after the last one marks the fan-out done (and completes the campaign if nothing is pending). */
const continueFanout = (job: FanoutJob, campaign: Campaign) => fanOutFrom(job, campaign, job.chunk + 1);

/** Hands chunk `next` to a new job (or the pending segment's resolution, past the last chunk), or marks the fan-out done. */
async function fanOutFrom(job: FanoutJob, campaign: Campaign, next: number): Promise<void> {
  if (next < campaign.audience_chunks || campaign.segment_pending) {
    await enqueue(queueUrl('fanout'), [{ ...job, chunk: next }]);
    return;
  }
  await markFanoutDone(job.workspace_id, job.campaign_id, job.launch_id, job.retry_id);
  await completeIfDone(job.workspace_id, job.campaign_id);
}

/**
 * A chunk the fan-out queue gave up on (it failed every receive): its recipients without a message
 * get one, `failed` with `send_failed`, so they are counted and visible, and the fan-out goes on
 * with the next chunk; the campaign therefore completes (contract §14). Idempotent like a chunk.
 */
export async function failDeadLetteredChunk(job: FanoutJob): Promise<void> {
  const campaign = await jobCampaign(job);
  if (!campaign) return;
  if (campaign.segment_pending && job.chunk >= campaign.audience_chunks) return fanOutFrom(job, await abandonPendingSegment(campaign), job.chunk);
  // Before its failed messages: a later job of this chunk (its predecessor ran twice) must not write it as a first try over them.
  await markChunkWritten(job);
  const recipients = (await readAudienceChunk(job.workspace_id, job.campaign_id, job.launch_id, job.chunk)) ?? [];
  const now = nowIso();
  await putMessages(
    job.retry_id
      ? await retryMessages(
          campaign,
          recipients,
          () => FANOUT_GAVE_UP,
          (recipient, error) => campaignMessage(campaign, undefined, recipient, error, now),
        )
      : recipients.map((recipient) => campaignMessage(campaign, undefined, recipient, FANOUT_GAVE_UP, now)),
    await fanoutListShards(job.workspace_id),
  );
  await continueFanout(job, campaign);
}
