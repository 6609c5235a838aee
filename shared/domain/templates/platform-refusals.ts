/**
 * What a platform failure during template management becomes (contract §2, §18): the name and
 * language already in use is 409 `template_exists`; any other refusal is 422 `platform_error`
 * whose `details` repeat the platform's error fields (`code`, `error_subcode`, `message`,
 * `error_user_title`, `error_user_msg`); a platform fault (5xx) or no answer at all is 502
 * `platform_error`.
 */
import { errors } from '#shared/errors';
import { platformFailure } from '#shared/domain/platform-calls';
import { PlatformError } from '#shared/platform/graph-client';

/** The platform's subcode for "Message template already exists" (that name, in that language). */
export const TEMPLATE_EXISTS_SUBCODE = 2388024;

/** Rethrows a failure of `doing` (e.g. "create the template") as the domain's error. */
export function templateManagementFailure(error: unknown, doing: string, template: { name: string; language: string }): never {
  if (error instanceof PlatformError && error.subcode === TEMPLATE_EXISTS_SUBCODE)
    throw errors.refused('template_exists', `A template ${template.name} in ${template.language} exists in this business account`);
  return platformFailure(error, doing);
}
