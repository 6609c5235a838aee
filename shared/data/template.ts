import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionally } from '#shared/data/table/conditions';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { queryAll } from '#shared/data/table/query-all';
import { streamItemOf, workspaceInKey, type StreamImage } from '#shared/data/table/stream-image';
import { placeholdersOf, type Template } from '#shared/records/template';

/** All templates of a workspace share one small item collection: read-mostly, bounded by the platform. */
const TEMPLATES = '#TEMPLATES';
const templatesPartition = (ws: string) => `WS#${ws}${TEMPLATES}`;
const templateKey = (ws: string, name: string, language: string) => ({ PK: templatesPartition(ws), SK: `${name}#${language}` });

/** A template synced before components were kept (the next sync, within 15 minutes, rewrites it) reads as body-only and positional. */
const toTemplate = (item: Record<string, unknown>): Template => {
  const stored = item as unknown as Template;
  const { id, name, language, category, status, content } = stored;
  return {
    id,
    name,
    language,
    category,
    status,
    content,
    parameter_format: stored.parameter_format ?? 'POSITIONAL',
    placeholders: stored.placeholders ?? placeholdersOf(stored.content),
    header: stored.header ?? null,
    footer: stored.footer ?? null,
    buttons: stored.buttons ?? [],
  };
};

/** All templates of a workspace, with one query. */
export async function allTemplates(ws: string): Promise<Template[]> {
  return (await queryAll<Record<string, unknown>>({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': templatesPartition(ws) } })).map(
    toTemplate,
  );
}

export async function getTemplate(ws: string, name: string, language: string): Promise<Template | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: templateKey(ws, name, language) }));
  return Item && toTemplate(Item);
}

/** Stores the platform's current templates (one per name and language) and removes the stored ones it no longer lists. */
export async function replaceTemplates(ws: string, current: Template[], syncedAt: string): Promise<void> {
  const kept = new Set(current.map((t) => templateKey(ws, t.name, t.language).SK));
  const stale = (await allTemplates(ws)).filter((t) => !kept.has(templateKey(ws, t.name, t.language).SK));
  await batchWrite([
    ...current.map((t) => ({ PutRequest: { Item: { ...t, ...templateKey(ws, t.name, t.language), synced_at: syncedAt } } })),
    ...stale.map((t) => ({ DeleteRequest: { Key: templateKey(ws, t.name, t.language) } })),
  ]);
}

/** One template as created or edited through the API (contract §18); a sync later rewrites it as the platform lists it. */
export async function putTemplate(ws: string, template: Template, at: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...template, ...templateKey(ws, template.name, template.language), synced_at: at } }));
}

/** Removes templates deleted through the API. */
export async function deleteTemplates(ws: string, templates: Pick<Template, 'name' | 'language'>[]): Promise<void> {
  await batchWrite(templates.map((t) => ({ DeleteRequest: { Key: templateKey(ws, t.name, t.language) } })));
}

/** A stored template's new status, as the platform pushed it; false when no such template is stored. */
export const updateTemplateStatus = (ws: string, name: string, language: string, status: string, at: string): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: templateKey(ws, name, language),
        UpdateExpression: 'SET #status = :status, status_updated_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':at': at },
      }),
    ),
  );

/** The template a table stream image holds, with its workspace (from the key), or undefined when the image is another record's. */
export function templateFromStreamImage(image: StreamImage | undefined): { workspace_id: string; template: Template } | undefined {
  const item = streamItemOf(image, (key) => key.PK.endsWith(TEMPLATES));
  return item && { workspace_id: workspaceInKey(item), template: toTemplate(item) };
}
