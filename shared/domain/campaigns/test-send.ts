import { readAudienceChunk } from '#shared/data/audience-chunk';
import { RECIPIENT_OPTED_OUT } from '#shared/domain/messages/failures';
import { closedMarketError } from '#shared/domain/messages/markets';
import { optedOutPhones } from '#shared/data/contact-claims';
import { insertMessage } from '#shared/data/message';
import type { Message } from '#shared/records/message';
import { approvedTemplate } from '#shared/domain/templates/catalog';
import { campaignSender } from '#shared/domain/numbers/sender';
import { storedNumber } from '#shared/domain/numbers/numbers';
import type { Workspace } from '#shared/records/workspace';
import { fillMacros, prepareTemplate } from '#shared/domain/templates/parameters';
import type { TemplateInput, TemplateParameters } from '#shared/records/template-parameters';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import type { Campaign, Recipient } from '#shared/records/campaign';
import { requireCampaign } from '#shared/domain/campaigns/lifecycle';

/**
 * The launched audience's entries for the test numbers, and its first recipient: read chunk by
 * chunk until every number is found. A draft has no audience (and an expired one reads as none).
 */
async function audienceEntries(campaign: Campaign, phones: string[]): Promise<{ first: Recipient | undefined; byPhone: Map<string, Recipient> }> {
  const byPhone = new Map<string, Recipient>();
  let first: Recipient | undefined;
  if (!campaign.launch_id) return { first, byPhone };
  const wanted = new Set(phones);
  for (let chunk = 0; chunk < campaign.audience_chunks && byPhone.size < wanted.size; chunk++) {
    const recipients = (await readAudienceChunk(campaign.workspace_id, campaign.id, campaign.launch_id, chunk)) ?? [];
    first ??= recipients[0];
    for (const recipient of recipients) if (wanted.has(recipient.p) && !byPhone.has(recipient.p)) byPhone.set(recipient.p, recipient);
  }
  return { first, byPhone };
}

/** No audience yet: the template as is, which fits only a template without parameters (else 422 template_variables_mismatch). */
const NO_PARAMETERS: TemplateParameters = { header: null, variables: [], buttons: [] };

/**
 * A test number's template values, as the campaign would send them: its own when it is in the
 * launched audience; else the first recipient's values as given, with the macros filled for the
 * test number and an empty name (so `{{name}}` becomes the number, as for any recipient without
 * one). A campaign launched before the launch kept those values uses the first recipient's as sent.
 */
function testInput(campaign: Campaign, own: Recipient | undefined, first: Recipient | undefined, phone: string): TemplateInput {
  if (!own && campaign.first_input) return fillMacros(campaign.first_input, phone, null);
  const accepted = (own ?? first)?.t ?? NO_PARAMETERS;
  return { ...accepted, header: accepted.header ?? undefined };
}

/**
 * POST /campaigns/{id}/test (contract §15): the campaign's template, rendered as the campaign
 * renders it, to each test number (see testInput). The messages carry `test_of_campaign` and no
 * `campaign_id`, so the table stream counts them in the workspace only, never in the campaign's
 * metrics or completion. Every number is validated before any message is stored.
 */
export async function sendCampaignTest(workspace: Workspace, campaignId: string, phones: string[], from?: string) {
  const ws = workspace.id;
  const campaign = await requireCampaign(ws, campaignId);
  const sender = await campaignSender(workspace, campaign, from);
  if (campaign.status === 'cancelled') throw errors.invalidState('The campaign is cancelled; test sends need a campaign that is not');
  const numbers = [...new Set(phones)];
  // The launch's copy is what the campaign sends; a draft will copy the template approved now.
  // Another number than the campaign's uses its own business account's template.
  const template = (from === undefined && campaign.template) || (await approvedTemplate(workspace, sender.waba_id, campaign.template_name, campaign.language));
  const [{ first, byPhone }, optedOut] = await Promise.all([
    audienceEntries(campaign, numbers),
    template.category === 'MARKETING' ? optedOutPhones(ws, numbers) : Promise.resolve(new Set<string>()),
  ]);
  const now = nowIso();
  const messages: Message[] = numbers.map((phone) => {
    const { parameters, rendered, content } = prepareTemplate(template, testInput(campaign, byPhone.get(phone), first, phone));
    const error = optedOut.has(phone) ? RECIPIENT_OPTED_OUT : closedMarketError(template.category, { phone });
    return {
      id: newId(),
      workspace_id: ws,
      phone_number: phone,
      ...storedNumber(workspace, sender.id),
      direction: 'outbound',
      status: error ? 'failed' : 'queued',
      message_type: 'template',
      template_name: template.name,
      language: template.language,
      content,
      template_parameters: parameters,
      rendered,
      campaign_id: null,
      test_of_campaign: campaign.id,
      provider_message_id: null,
      error,
      metadata: { sent_at: null, delivered_at: null, read_at: null, failed_at: error ? now : null },
      created_at: now,
      updated_at: now,
    };
  });
  await Promise.all(messages.map(insertMessage));
  return { messages: messages.map((message) => ({ message_id: message.id, recipient: message.phone_number })) };
}
