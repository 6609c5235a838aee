/**
 * Deleting a template through the API (contract §18): that language (the platform's
 * `?name=…&hsm_id=…`), or with `allLanguages` every language of its name (`?name=…` only). The
 * stored templates go once the platform has deleted them.
 */
import { errors } from '#shared/errors';
import { deleteTemplates } from '#shared/data/template';
import { heldTemplates } from '#shared/domain/templates/catalog';
import { accessTokenFor } from '#shared/platform/secrets';
import { deletePlatformTemplate } from '#shared/platform/template-management';
import type { Workspace } from '#shared/records/workspace';
import { accountKey } from '#shared/domain/templates/business-account';
import { templateManagementFailure } from '#shared/domain/templates/platform-refusals';

export interface TemplateDeletion {
  id: string;
  name: string;
  /** The languages deleted, in order. */
  languages: string[];
  deleted: true;
}

export async function deleteTemplate(workspace: Workspace, id: string, allLanguages: boolean): Promise<TemplateDeletion> {
  const stored = await heldTemplates(workspace);
  const template = stored.find((t) => t.id === id);
  if (!template) throw errors.notFound('Template');
  // Every language of the name in the same business account: another account's are other templates.
  const targets = allLanguages ? stored.filter((t) => t.name === template.name && t.waba_id === template.waba_id) : [template];
  const token = await accessTokenFor(workspace.id);
  try {
    await deletePlatformTemplate(template.waba_id, token, { name: template.name, ...(!allLanguages && { templateId: id }) });
  } catch (error) {
    return templateManagementFailure(error, 'delete the template', template);
  }
  await deleteTemplates(workspace.id, accountKey(workspace, template.waba_id), targets);
  return { id, name: template.name, languages: targets.map((t) => t.language).sort(), deleted: true };
}
