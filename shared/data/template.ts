import { PutCommand, UpdateCommand } from '#shared/data/table/commands';
import { conditionally } from '#shared/data/table/conditions';
import { batchWrite } from '#shared/data/table/batch-write';
import { db, tableName } from '#shared/data/table/client';
import { readSideBySide } from '#shared/data/table/coalesced-gets';
import { queryAll } from '#shared/data/table/query-all';
import { streamItemOf, workspaceInKey, type StreamImage } from '#shared/data/table/stream-image';
import { placeholdersOf, type Template } from '#shared/records/template';

/**
 * All templates of a workspace share one small item collection: read-mostly, bounded by the
 * platform. Templates belong to a business account (contract §17): `account` undefined is the
 * workspace's first one, whose templates keep the keys they had before several numbers; another
 * account's sort keys start with its id (names never hold `#`) and its items carry `waba_id`.
 */
const TEMPLATES = '#TEMPLATES';
const templatesPartition = (ws: string) => `WS#${ws}${TEMPLATES}`;
/** A template's key: `account` undefined for the workspace's first business account. */
export const templateKey = (ws: string, account: string | undefined, name: string, language: string) => ({
  PK: templatesPartition(ws),
  SK: account ? `${account}#${name}#${language}` : `${name}#${language}`,
});

/** A template synced before components were kept (the next sync, within 15 minutes, rewrites it) reads as body-only and positional. */
export const toTemplate = (item: Record<string, unknown>): Template => {
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
    ...(stored.waba_id && { waba_id: stored.waba_id }),
  };
};

/** All templates of a workspace, of every business account, with one query. */
export async function allTemplates(ws: string): Promise<Template[]> {
  return (await queryAll<Record<string, unknown>>({ KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': templatesPartition(ws) } })).map(
    toTemplate,
  );
}

/** One template; read side by side with the request's other reads (POST /messages: the recipient's opt-out), in one call. */
export async function getTemplate(ws: string, account: string | undefined, name: string, language: string): Promise<Template | undefined> {
  const [item] = await readSideBySide([templateKey(ws, account, name, language)]);
  return item && toTemplate(item);
}

/** Stores one business account's current templates (one per name and language) and removes its stored ones it no longer lists. */
export async function replaceTemplates(ws: string, account: string | undefined, current: Template[], syncedAt: string): Promise<void> {
  const key = (t: Template) => templateKey(ws, account, t.name, t.language);
  const kept = new Set(current.map((t) => key(t).SK));
  const stale = (await allTemplates(ws)).filter((t) => t.waba_id === account && !kept.has(key(t).SK));
  await batchWrite([
    ...current.map((t) => ({ PutRequest: { Item: { ...t, ...(account && { waba_id: account }), ...key(t), synced_at: syncedAt } } })),
    ...stale.map((t) => ({ DeleteRequest: { Key: key(t) } })),
  ]);
}

/** One template as created or edited through the API (contract §18); a sync later rewrites it as the platform lists it. */
export async function putTemplate(ws: string, account: string | undefined, template: Template, at: string): Promise<void> {
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...template, ...(account && { waba_id: account }), ...templateKey(ws, account, template.name, template.language), synced_at: at },
    }),
  );
}

/** Removes templates deleted through the API. */
export async function deleteTemplates(ws: string, account: string | undefined, templates: Pick<Template, 'name' | 'language'>[]): Promise<void> {
  await batchWrite(templates.map((t) => ({ DeleteRequest: { Key: templateKey(ws, account, t.name, t.language) } })));
}

/** A stored template's new status, as the platform pushed it; false when no such template is stored. */
export const updateTemplateStatus = (ws: string, account: string | undefined, name: string, language: string, status: string, at: string): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: templateKey(ws, account, name, language),
        UpdateExpression: 'SET #status = :status, status_updated_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':at': at },
      }),
    ),
  );

/** A stored template's category, as the platform changed it; false when no such template is stored. */
export const updateTemplateCategory = (
  ws: string,
  account: string | undefined,
  name: string,
  language: string,
  category: string,
  at: string,
): Promise<boolean> =>
  conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: templateKey(ws, account, name, language),
        UpdateExpression: 'SET category = :category, category_updated_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':category': category, ':at': at },
      }),
    ),
  );

/** The template a table stream image holds, with its workspace (from the key), or undefined when the image is another record's. */
export function templateFromStreamImage(image: StreamImage | undefined): { workspace_id: string; template: Template } | undefined {
  const item = streamItemOf(image, (key) => key.PK.endsWith(TEMPLATES));
  return item && { workspace_id: workspaceInKey(item), template: toTemplate(item) };
}
