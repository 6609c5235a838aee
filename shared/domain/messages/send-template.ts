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
 * What the message renders from, when it is already read: its campaign's copy, or the template
 * read with the message (approved, else the contract's 422, as a read now would). Undefined when
 * neither was read: the request reads the template itself.
 */
export function templateRead(message: StoredMessage, campaign: Campaign | undefined, job: SendJob, read: Template | null | undefined): Template | undefined {
  if (campaign?.template) return campaign.template;
  const named = job.template?.name === message.template_name && job.template?.language === message.language;
  return read === undefined || !named ? undefined : approvedOrRefused(read ?? undefined, message.template_name!, message.language!);
}
