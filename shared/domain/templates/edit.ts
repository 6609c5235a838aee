/**
 * Editing a template's components (and its category while it is not approved) through the API
 * (contract §18). The platform decides how often an approved template may change; its refusals
 * come back as 422 `platform_error`. An accepted edit is reviewed again: the stored template is
 * PENDING until the platform pushes its verdict.
 */
import { errors } from '#shared/errors';
import { putTemplate } from '#shared/data/template';
import { accessTokenFor } from '#shared/platform/secrets';
import { editPlatformTemplate } from '#shared/platform/template-management';
import type { ComponentDefinition } from '#shared/records/template-definition';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';
import { templateById } from '#shared/domain/templates/catalog';
import { accountKey, type AccountTemplate } from '#shared/domain/templates/business-account';
import { fromPlatform } from '#shared/domain/templates/from-platform';
import { headerExampleFile, uploadedHandle } from '#shared/domain/templates/header-media';
import { templateManagementFailure } from '#shared/domain/templates/platform-refusals';
import { componentsProblems } from '#shared/domain/templates/rules';

export interface TemplateEdit {
  components: ComponentDefinition[];
  category?: string;
}

export async function editTemplate(workspace: Workspace, id: string, edit: TemplateEdit): Promise<AccountTemplate> {
  const stored = await templateById(workspace, id);
  if (!stored) throw errors.notFound('Template');
  const problems = componentsProblems(edit.components, stored.parameter_format);
  const newCategory = edit.category !== undefined && edit.category !== stored.category ? edit.category : undefined;
  if (newCategory && stored.status === 'APPROVED') problems.push({ field: 'category', message: 'The category of an APPROVED template cannot change' });
  if (problems.length) throw errors.unprocessable(problems);
  const file = await headerExampleFile(edit.components);
  const token = await accessTokenFor(workspace.id);
  const headerHandle = await uploadedHandle(file, token, stored);
  try {
    await editPlatformTemplate(id, token, { components: edit.components, headerHandle, category: newCategory });
  } catch (error) {
    return templateManagementFailure(error, 'edit the template', stored);
  }
  const { name, language, parameter_format } = stored;
  const template = fromPlatform({
    id,
    name,
    language,
    parameter_format,
    category: newCategory ?? stored.category,
    status: 'PENDING',
    components: edit.components,
  });
  await putTemplate(workspace.id, accountKey(workspace, stored.waba_id), template, nowIso());
  return { ...template, waba_id: stored.waba_id };
}
