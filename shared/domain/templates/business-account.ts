/**
 * Which business account (WABA) a template operation is for. Today a workspace has one number
 * and one business account, on its record; a template for another account is a validation error
 * on `waba_id`. When a workspace holds several numbers (contract §17), this is the one function
 * to widen: any account of the workspace's numbers, the default number's by default.
 */
import { errors } from '#shared/errors';
import type { Workspace } from '#shared/records/workspace';

export function businessAccountFor(workspace: Workspace, requested: string | undefined): string {
  if (requested === undefined || requested === workspace.waba_id) return workspace.waba_id;
  throw errors.unprocessable([{ field: 'waba_id', message: "Must be the workspace's business account" }]);
}
