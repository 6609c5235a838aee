import { createTemplateBody, deleteTemplateQuery, editTemplateBody, listTemplatesQuery, templateIdParams } from '#shared/schemas/templates';
import type { ApiKeyOperation } from '#shared/schemas/operations/description';

export const ListTemplates = {
  tag: 'Templates',
  summary: "List the workspace's templates",
  description: 'As last synced from the platform (every 15 minutes, on demand, and when the platform reports a status change).',
  auth: 'apiKey',
  request: { query: listTemplatesQuery },
  success: [{ status: 200, data: 'template', list: 'all' }],
} satisfies ApiKeyOperation;

export const SyncTemplates = {
  tag: 'Templates',
  summary: 'Sync the templates from the platform now',
  auth: 'apiKey',
  request: {},
  success: [{ status: 200, data: 'templateSync' }],
  errors: ['platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;

export const CreateTemplate = {
  tag: 'Templates',
  summary: 'Create a template and submit it for review',
  description:
    "`components` in the platform's shape (HEADER, BODY, FOOTER, BUTTONS with their examples). A media header's example is `example.header_url` (https, downloaded by the service, at most 5 MB) or `example.header_base64` with `example.mime_type`; the service uploads it to the platform for the handle the review needs. The platform's rules are checked first, each broken rule one `details` entry of a 422 `validation_error`. Answers the template in the status the platform gave it (usually `PENDING`); the review's verdict arrives by push and emits `template.updated`.",
  auth: 'apiKey',
  request: { body: createTemplateBody },
  success: [{ status: 201, data: 'template' }],
  errors: ['template_exists', 'platform_error'],
  unprocessable: ['validation_error', 'platform_error'],
} satisfies ApiKeyOperation;

export const UpdateTemplate = {
  tag: 'Templates',
  summary: "Edit a template's components (and category while not approved)",
  description:
    'Same rules as the creation. The platform limits how often an approved template may be edited; its refusal is a 422 `platform_error`. An edited template is reviewed again (`PENDING`).',
  auth: 'apiKey',
  request: { params: templateIdParams, body: editTemplateBody },
  success: [{ status: 200, data: 'template' }],
  errors: ['not_found', 'platform_error'],
  unprocessable: ['validation_error', 'platform_error'],
} satisfies ApiKeyOperation;

export const DeleteTemplate = {
  tag: 'Templates',
  summary: 'Delete a template in its language, or in every language',
  description: "`all_languages=true` deletes every language of the template's name.",
  auth: 'apiKey',
  request: { params: templateIdParams, query: deleteTemplateQuery },
  success: [{ status: 200, data: 'templateDeletion' }],
  errors: ['not_found', 'platform_error'],
  unprocessable: ['platform_error'],
} satisfies ApiKeyOperation;
