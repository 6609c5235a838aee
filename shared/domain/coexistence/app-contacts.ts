/**
 * The app's contacts (contract §23, `smb_app_state_sync`): an added or edited contact is upserted
 * into the contact book by number, its name taken, marked `source: business_app` when the app
 * created it; a contact the app removed stays in the book (the API's contacts are the business's
 * to delete).
 */
import { upsertContact } from '#shared/domain/contacts/lifecycle';
import type { AppContact } from '#shared/platform/coexistence-webhooks';

export async function recordAppContact(workspaceId: string, contact: AppContact): Promise<void> {
  if (contact.removed) return;
  await upsertContact(workspaceId, contact.phone, { ...(contact.name && { name: contact.name }), source: 'business_app' });
}
