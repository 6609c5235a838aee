/**
 * Creating a template through the API (contract §18): the rules checked first (422, nothing
 * sent), then the media header's example uploaded for its handle, then the platform asked; the
 * template is stored as the platform answered it (its id, status and category), so
 * `GET /api/v1/templates` shows it at once. Its review arrives later by push or sync.
 */
import { errors } from '#shared/errors';
import { getTemplate, putTemplate } from '#shared/data/template';
import { accessTokenFor } from '#shared/platform/secrets';
import { createPlatformTemplate, type CreatedTemplate } from '#shared/platform/template-management';
import type { TemplateDefinition } from '#shared/records/template-definition';
import type { Workspace } from '#shared/records/workspace';
import { nowIso } from '#shared/time';
import { accountKey, businessAccountFor, type AccountTemplate } from '#shared/domain/templates/business-account';
import { fromPlatform } from '#shared/domain/templates/from-platform';
import { headerExampleFile, uploadedHandle } from '#shared/domain/templates/header-media';
import { templateManagementFailure } from '#shared/domain/templates/platform-refusals';
import { definitionProblems } from '#shared/domain/templates/rules';

export async function createTemplate(workspace: Workspace, request: TemplateDefinition & { waba_id?: string }): Promise<AccountTemplate> {
  const { waba_id: requestedAccount, ...definition } = request;
  const wabaId = await businessAccountFor(workspace, requestedAccount);
  const problems = definitionProblems(definition);
  if (problems.length) throw errors.unprocessable(problems);
  // The platform would refuse it too (2388024); asking it first would upload the example for nothing.
  if (await getTemplate(workspace.id, accountKey(workspace, wabaId), definition.name, definition.language))
    throw errors.refused('template_exists', `A template ${definition.name} in ${definition.language} exists in this business account`);
  const file = await headerExampleFile(definition.components);
  const token = await accessTokenFor(workspace.id);
  const handle = await uploadedHandle(file, token, definition);
  let created: CreatedTemplate;
  try {
    created = await createPlatformTemplate(wabaId, token, definition, handle);
  } catch (error) {
    return templateManagementFailure(error, 'create the template', definition);
  }
  const template = fromPlatform({ ...definition, ...created });
  await putTemplate(workspace.id, accountKey(workspace, wabaId), template, nowIso());
  return { ...template, waba_id: wabaId };
}
