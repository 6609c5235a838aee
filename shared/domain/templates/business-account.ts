/**
 * Which business account (WABA) a template operation is for (contract §17, §18): any account of the
 * workspace's connected numbers, the default number's by default. Templates are stored per account;
 * the workspace's first account keeps the keys it had before several numbers (data/template.ts).
 */
import { accountsOf, defaultNumberId, wabaOfNumber } from '#shared/domain/numbers/numbers';
import { errors } from '#shared/errors';
import type { Template } from '#shared/records/template';
import type { Workspace } from '#shared/records/workspace';

/** The stored key of an account's templates: `undefined` for the workspace's first. */
export const accountKey = (workspace: Workspace, wabaId: string): string | undefined => (wabaId === workspace.waba_id ? undefined : wabaId);

/** A template with its business account named: the first account's items do not carry it. */
export type AccountTemplate = Template & { waba_id: string };
export const withAccount = (workspace: Workspace, template: Template): AccountTemplate => ({
  ...template,
  waba_id: template.waba_id ?? workspace.waba_id ?? '',
});

/** The account a template is created in: one the workspace holds (contract §22), the default number's unless named. */
export async function businessAccountFor(workspace: Workspace, requested: string | undefined): Promise<string> {
  const account = requested ?? (await wabaOfNumber(workspace, defaultNumberId(workspace)));
  // A workspace created without a number (for onboarding) has no business account yet.
  if (!account) throw errors.unprocessable([{ field: 'waba_id', message: 'The workspace has no number yet: onboard it or connect one first' }]);
  if ((await accountsOf(workspace)).includes(account)) return account;
  throw errors.unprocessable([{ field: 'waba_id', message: 'Must be a business account the workspace holds: the account of one of its numbers' }]);
}
