import { cachedNumbers, defaultNumberId, wabaOfNumber } from '#shared/domain/numbers/numbers';
import type { Campaign } from '#shared/records/campaign';
import { errors } from '#shared/errors';
import { firstNumberOf, type Workspace } from '#shared/records/workspace';

/** The number a send goes out from, and the business account whose templates it may use. */
export interface Sender {
  id: string;
  waba_id: string;
}

/**
 * Resolves `from` (contract §17): a connected number's id or its display number in any phone
 * format; absent, the default number. While the first number is the default, it resolves with no
 * read at all, so clients that never send `from` pay nothing for numbers.
 */
export async function senderOf(workspace: Workspace, from?: string): Promise<Sender> {
  const wanted = from === undefined ? defaultNumberId(workspace) : from.replace(/\D/g, '');
  // The default number is always connected (it cannot be disconnected), so naming it needs no read.
  if (workspace.phone_number_id && workspace.waba_id && wanted === workspace.phone_number_id && wanted === defaultNumberId(workspace)) {
    return { id: workspace.phone_number_id, waba_id: workspace.waba_id };
  }
  const numbers = await cachedNumbers(workspace);
  const number = numbers.find((n) => n.status === 'connected' && (n.id === wanted || (n.display_phone_number !== '' && n.display_phone_number === wanted)));
  if (!number)
    throw errors.refused('unknown_number', `No connected number ${from ?? wanted} in this workspace`, [
      { field: 'from', message: 'not a connected number of the workspace' },
    ]);
  return { id: number.id, waba_id: number.waba_id };
}

/** A campaign's launch or test send: `from` when given, else the number the campaign was created with (a campaign from before several numbers: the first). */
export async function campaignSender(workspace: Workspace, campaign: Campaign, from?: string): Promise<Sender> {
  if (from !== undefined) return senderOf(workspace, from);
  const id = campaign.business_number_id ?? firstNumberOf(workspace);
  return { id, waba_id: await wabaOfNumber(workspace, id) };
}
