import { updateTemplateCategory } from '#shared/data/template';
import { accountKey } from '#shared/domain/templates/business-account';
import { logger } from '#shared/logger';
import type { TemplateCategoryUpdate } from '#shared/platform/template-category-update';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';

/**
 * A category the platform gave one of the workspace's templates (`template_category_update`): the
 * stored template takes it at once, and its changed view makes the table's stream announce
 * `template.updated`; sends read the category as they always do, so opt-outs and market rules for
 * `MARKETING` apply from then on (contract §21). A warning names the current category, so it
 * changes nothing until the change itself arrives. A template we do not have is left alone: the
 * next sync brings it with its category.
 */
export async function recordTemplateCategory(workspace: Workspace, update: TemplateCategoryUpdate): Promise<void> {
  const stored = await updateTemplateCategory(workspace.id, accountKey(workspace, update.wabaId), update.name, update.language, update.category, nowIso());
  if (!stored) logger.info('Category update for a template not stored; ignored', { wabaId: update.wabaId, name: update.name, language: update.language });
}
