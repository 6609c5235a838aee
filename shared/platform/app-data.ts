/**
 * Asking the platform for what a coexistence number's WhatsApp Business app holds
 * (`POST /{phone_number_id}/smb_app_data`, docs/platform-coexistence.md §2): its contacts
 * (`smb_app_state_sync`) or its chat history (`history`), delivered by webhook. Each may be asked
 * once; the platform refuses a second request with 2593107.
 */
import { graphRequest, graphUrl, PlatformError } from '#shared/platform/graph-client';

export const APP_DATA_ALREADY_REQUESTED = 2593107;

/** Whether this request was taken now (false: it had been before). */
export async function requestAppData(phoneNumberId: string, token: string, syncType: 'smb_app_state_sync' | 'history'): Promise<boolean> {
  try {
    await graphRequest(graphUrl(`${encodeURIComponent(phoneNumberId)}/smb_app_data`), token, { messaging_product: 'whatsapp', sync_type: syncType });
    return true;
  } catch (error) {
    if (error instanceof PlatformError && error.code === APP_DATA_ALREADY_REQUESTED) return false;
    throw error;
  }
}
