import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#shared/data/table/client';
import { counterNames, keys } from '#shared/data/keys';
import { queryPage, readCounter } from '#shared/data/table/pages';
import { pagination } from '#shared/pagination';
import { transact } from '#shared/data/table/transact';
import { indexes } from '#shared/data/table/table';
import { approvedTemplate, templateById } from '#shared/domain/templates';
import type { Plan } from '#shared/domain/workspaces';
import { errors } from '#shared/errors';
import { newId } from '#shared/ids';
import { nowIso } from '#shared/time';
import { campaignView, ZERO_COUNTS, type Campaign, type CampaignCounts, type CampaignStatus } from '#shared/domain/campaigns/campaign';
import { queryAll } from '#shared/data/table/query-all';

export interface NewCampaign {
  name: string;
  template_id?: string;
  template_name?: string;
  language?: string;
  scheduled_at?: string;
}

const SCHEDULING_PLANS: Plan[] = ['growth', 'pro'];

/** The template a new campaign names: by id, by name and language, or both (which must agree); it must be approved. */
async function campaignTemplate(ws: string, input: NewCampaign) {
  const language = input.language ?? 'en_US';
  if (input.template_id) {
    const template = await templateById(ws, input.template_id);
    if (!template) throw errors.refused('template_not_found', `No template with id ${input.template_id}`);
    if (input.template_name && input.template_name !== template.name) {
      throw errors.validation([{ field: 'template_name', message: `Template ${input.template_id} is named ${template.name}` }]);
    }
    if (template.status !== 'APPROVED') throw errors.refused('template_not_approved', `Template ${template.name} (${template.language}) is ${template.status}`);
    return template;
  }
  return approvedTemplate(ws, input.template_name!, language);
}

export async function createCampaign(ws: string, plan: Plan, input: NewCampaign): Promise<Campaign> {
  if (input.scheduled_at && !SCHEDULING_PLANS.includes(plan)) {
    throw errors.refused('plan_upgrade_required', 'Scheduled campaigns need the growth or pro plan');
  }
  const template = await campaignTemplate(ws, input);
  const campaign: Campaign = {
    id: newId(),
    workspace_id: ws,
    name: input.name,
    template_id: template.id,
    template_name: template.name,
    language: template.language,
    placeholder_count: template.placeholder_count,
    status: 'draft',
    scheduled_at: input.scheduled_at ?? null,
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
  await transact([
    { Put: { TableName: tableName(), Item: { ...keys.campaign(ws, campaign.id), ...keys.campaignList(ws, campaign.id), ...campaign }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Update: { TableName: tableName(), Key: keys.counter(ws, counterNames.campaigns), UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1 } } },
  ]);
  return campaign;
}

export async function getCampaign(ws: string, id: string, consistent = true): Promise<Campaign | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.campaign(ws, id), ConsistentRead: consistent }));
  return Item as Campaign | undefined;
}

/**
 * The campaign's counts: the sum of its metric shards, read in one strongly consistent query.
 * Each message moves counts within its own shard only, so every shard, and so the sum, always
 * adds up to total_messages.
 */
export async function campaignCounts(ws: string, id: string): Promise<CampaignCounts> {
  const shards = await queryAll<Partial<CampaignCounts>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :metrics)',
    ExpressionAttributeValues: { ':pk': keys.campaignMetrics(ws, id).PK, ':metrics': keys.campaignMetrics(ws, id).SK },
    ConsistentRead: true,
  });
  const counts = { ...ZERO_COUNTS };
  for (const shard of shards) for (const name of Object.keys(counts) as (keyof CampaignCounts)[]) counts[name] += Number(shard[name] ?? 0);
  return counts;
}

export async function requireCampaign(ws: string, id: string): Promise<Campaign> {
  const campaign = await getCampaign(ws, id);
  if (!campaign) throw errors.notFound('Campaign');
  return campaign;
}

/** Newest first, with the exact count from the workspace's campaign counter. */
export async function listCampaigns(ws: string, page: number, pageSize: number) {
  const query = {
    IndexName: indexes.byParent.indexName,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.campaignList(ws).GSI1PK },
    ScanIndexForward: false,
  };
  const [items, totalCount] = await Promise.all([queryPage<Campaign>(query, page, pageSize), readCounter(keys.counter(ws, counterNames.campaigns))]);
  return { data: items.map(campaignView), pagination: pagination(page, pageSize, totalCount) };
}

/** A status change allowed only from the given statuses; 409 invalid_state otherwise. */
export async function moveCampaign(ws: string, id: string, from: CampaignStatus[], set: Record<string, unknown>): Promise<Campaign> {
  const names = Object.fromEntries(Object.keys(set).map((n) => [`#${n}`, n]));
  const values = Object.fromEntries(Object.entries(set).map(([n, v]) => [`:${n}`, v]));
  from.forEach((status, i) => (values[`:from${i}`] = status));
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.campaign(ws, id),
        UpdateExpression: `SET ${Object.keys(set).map((n) => `#${n} = :${n}`).join(', ')}`,
        ConditionExpression: `attribute_exists(PK) AND #status_now IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { ...names, '#status_now': 'status' },
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Campaign;
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    const current = await requireCampaign(ws, id);
    throw errors.invalidState(`The campaign is ${current.status}; this needs it ${from.join(' or ')}`);
  }
}
