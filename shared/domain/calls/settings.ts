/**
 * A number's calling settings (contract §23), kept by the platform (`/{phone_number_id}/settings`,
 * docs/platform-calling.md §1) and shown in the contract's words: `enabled`, `icon_visibility`,
 * `callback_permission` and `hours` (the platform's `call_hours` object as it has it). A change sends only
 * the fields given; the answer is the platform's settings read after it.
 */
import { errors } from '#shared/errors';
import { workspaceNumbers } from '#shared/domain/numbers/numbers';
import { onPlatform } from '#shared/domain/platform-calls';
import { accessTokenFor } from '#shared/platform/secrets';
import { fetchCallingSettings, updateCallingSettings, type PlatformCallingSettings } from '#shared/platform/calls';
import type { Workspace } from '#shared/records/workspace';

export interface CallingSettingsChange {
  enabled?: boolean;
  icon_visibility?: 'DEFAULT' | 'DISABLE_ALL';
  callback_permission?: boolean;
  hours?: Record<string, unknown>;
}

const view = (numberId: string, calling: PlatformCallingSettings) => ({
  number_id: numberId,
  enabled: calling.status === 'ENABLED',
  icon_visibility: calling.call_icon_visibility ?? 'DEFAULT',
  callback_permission: calling.callback_permission_status === 'ENABLED',
  hours: calling.call_hours ?? null,
});

async function connectedNumber(workspace: Workspace, numberId: string): Promise<string> {
  const numbers = await workspaceNumbers(workspace);
  if (!numbers.some((number) => number.id === numberId && number.status === 'connected')) throw errors.notFound('Number');
  return numberId;
}

export async function callingSettings(workspace: Workspace, numberId: string) {
  const id = await connectedNumber(workspace, numberId);
  const token = await accessTokenFor(workspace.id);
  return view(id, await onPlatform('read the calling settings', () => fetchCallingSettings(id, token)));
}

export async function changeCallingSettings(workspace: Workspace, numberId: string, change: CallingSettingsChange) {
  const id = await connectedNumber(workspace, numberId);
  const token = await accessTokenFor(workspace.id);
  const onOff = (on: boolean) => (on ? 'ENABLED' : 'DISABLED');
  const calling: PlatformCallingSettings = {
    ...(change.enabled !== undefined && { status: onOff(change.enabled) }),
    ...(change.icon_visibility !== undefined && { call_icon_visibility: change.icon_visibility }),
    ...(change.callback_permission !== undefined && { callback_permission_status: onOff(change.callback_permission) }),
    ...(change.hours !== undefined && { call_hours: change.hours }),
  };
  await onPlatform('change the calling settings', () => updateCallingSettings(id, token, calling));
  return view(id, await onPlatform('read the calling settings', () => fetchCallingSettings(id, token)));
}
