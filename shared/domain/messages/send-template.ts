import type { NamedTemplate } from '#shared/data/send-reads';
import type { StoredMessage } from '#shared/data/message';
import type { SendJob } from '#shared/domain/messages/send-queue-job';
import { wabaOfNumber } from '#shared/domain/numbers/numbers';
import { accountKey } from '#shared/domain/templates/business-account';
import { approvedOrRefused } from '#shared/domain/templates/catalog';
import type { Campaign } from '#shared/records/campaign';
import type { Template } from '#shared/records/template';
import type { Workspace } from '#shared/records/workspace';

/**
 * The template a single template message's job names, under the business account of the number
 * the message goes out from, as `approvedTemplateFor` would read it: read with the message in the
 * worker's first call (issue 29: its own call after the claim before).
 */
export async function namedTemplate(workspace: Workspace | undefined, job: SendJob): Promise<NamedTemplate | undefined> {
  if (!job.template || !workspace) return undefined;
  return { account: accountKey(workspace, await wabaOfNumber(workspace, job.business_number_id)), ...job.template };
}

/**
 * How old the template read with the message may be when the request is built: about as old as
 * a read after the claim would be by the platform call. A run that waited longer (for its send
 * slot, up to 10 s on a number at its throughput) reads it again, so a template paused meanwhile
 * is still refused as `template_not_approved` (contract §13).
 */
const FRESH_TEMPLATE_MS = 1000;

/**
 * What the message renders from, when it is already read: its campaign's copy, or the template
 * read with the message `readAgoMs` ago (approved, else the contract's 422, as a read now would).
 * Undefined when neither is at hand: the request reads the template itself.
 */
export function templateRead(
  message: StoredMessage,
  campaign: Campaign | undefined,
  job: SendJob,
  read: Template | null | undefined,
  readAgoMs: number,
): Template | undefined {
  if (campaign?.template) return campaign.template;
  const named = job.template?.name === message.template_name && job.template?.language === message.language;
  if (read === undefined || !named || !(readAgoMs <= FRESH_TEMPLATE_MS)) return undefined;
  return approvedOrRefused(read ?? undefined, message.template_name!, message.language!);
}
