import { campaignsPage, getCampaign, insertCampaign, moveCampaignFrom, runningCampaigns } from '#shared/data/campaign';
import type { Sender } from '#shared/domain/numbers/sender';
import { approvedTemplate, templateById } from '#shared/domain/templates/catalog';
import { firstNumberOf, type Plan, type Workspace } from '#shared/records/workspace';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { pagination } from '#shared/pagination';
import { nowIso } from '#shared/time';
import { campaignView } from '#shared/domain/campaigns/campaign';
import type { Campaign, CampaignStatus, SendWindow } from '#shared/records/campaign';

export { campaignCounts, campaignCountsByCode } from '#shared/data/campaign-metrics';
export { getCampaign };

export interface NewCampaign {
  name: string;
  template_id?: string;
  template_name?: string;
  language?: string;
  scheduled_at?: string;
  send_window?: SendWindow;
  max_cost?: string;
}

/** The campaigns sending from a number now: a number they send from cannot be disconnected. */
export async function runningCampaignsFrom(workspace: Workspace, numberId: string): Promise<Campaign[]> {
  return (await runningCampaigns(workspace.id)).filter((c) => (c.business_number_id ?? firstNumberOf(workspace)) === numberId);
}

const SCHEDULING_PLANS: Plan[] = ['growth', 'pro'];

/** The template a new campaign names: by id, by name and language, or both (which must agree); it must be approved. */
async function campaignTemplate(workspace: Workspace, sender: Sender, input: NewCampaign) {
  const language = input.language ?? 'en_US';
  if (input.template_id) {
    const template = await templateById(workspace, input.template_id, sender.waba_id);
    if (!template) throw errors.refused('template_not_found', `No template with id ${input.template_id}`);
    if (input.template_name && input.template_name !== template.name) {
      throw errors.validation([{ field: 'template_name', message: `Template ${input.template_id} is named ${template.name}` }]);
    }
    if (template.status !== 'APPROVED') throw errors.refused('template_not_approved', `Template ${template.name} (${template.language}) is ${template.status}`);
    return template;
  }
  return approvedTemplate(workspace, sender.waba_id, input.template_name!, language);
}

/** A new draft campaign, sending from `sender` (contract §17: `from`, else the default number). */
export async function createCampaign(workspace: Workspace, sender: Sender, input: NewCampaign): Promise<Campaign> {
  const ws = workspace.id;
  if (input.scheduled_at && !SCHEDULING_PLANS.includes(workspace.plan)) {
    throw errors.refused('plan_upgrade_required', 'Scheduled campaigns need the growth or pro plan');
  }
  const template = await campaignTemplate(workspace, sender, input);
  const campaign: Campaign = {
    id: newId(),
    workspace_id: ws,
    business_number_id: sender.id,
    name: input.name,
    template_id: template.id,
    template_name: template.name,
    language: template.language,
    status: 'draft',
    scheduled_at: input.scheduled_at ?? null,
    send_window: input.send_window ?? null,
    max_cost: input.max_cost ?? null,
    created_at: nowIso(),
    queued_at: null,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    total_recipients: null,
    launch_id: null,
    audience_chunks: 0,
    fanout_done: false,
  };
  await insertCampaign(campaign);
  return campaign;
}

export async function requireCampaign(ws: string, id: string): Promise<Campaign> {
  const campaign = await getCampaign(ws, id);
  if (!campaign) throw errors.notFound('Campaign');
  return campaign;
}

/** Newest first, with the exact count from the workspace's campaign counter. */
export async function listCampaigns(ws: string, page: number, pageSize: number) {
  const { campaigns, total } = await campaignsPage(ws, page, pageSize);
  return { data: campaigns.map(campaignView), pagination: pagination(page, pageSize, total) };
}

/** A status change allowed only from the given statuses; invalid_state otherwise. */
export async function moveCampaign(ws: string, id: string, from: CampaignStatus[], set: Record<string, unknown>): Promise<Campaign> {
  const moved = await moveCampaignFrom(ws, id, from, set);
  if (moved) return moved;
  const current = await requireCampaign(ws, id);
  throw errors.invalidState(`The campaign is ${current.status}; this needs it ${from.join(' or ')}`);
}

/** A campaign still `scheduled` starts running (the table stream then starts its fan-out); one cancelled meanwhile stays as it is. */
export async function startScheduledCampaign(ws: string, id: string): Promise<boolean> {
  return Boolean(await moveCampaignFrom(ws, id, ['scheduled'], { status: 'running', started_at: nowIso() }));
}
