import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWebhook } from '#shared/platform/webhook-payload';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../fixtures/platform-webhooks', name), 'utf8'));
const changesIn = (name: string) => readWebhook(fixture(name)).identityChanges;
const systemMessage = (system: Record<string, unknown>, from?: string) => ({
  entry: [
    {
      id: '1',
      changes: [
        {
          field: 'messages',
          value: {
            metadata: { phone_number_id: '106540352242922' },
            messages: [{ ...(from && { from }), id: 'wamid.x', timestamp: '1754956800', type: 'system', system }],
          },
        },
      ],
    },
  ],
});

/**
 * A customer's new number or business-scoped user id, as the platform's `system` messages name
 * them (the fixtures' sources: docs/platform-payloads.md): the old and the new of each.
 */
describe('system messages as identity changes', () => {
  it('reads a number change before user ids (wa_id the new number, from the old)', () => {
    expect(changesIn('system-user-changed-number.json')).toEqual([
      { phoneNumberId: '106540352242922', at: '2025-06-18T17:55:42.000Z', number: { from: '16505551234', to: '12195555358' } },
    ]);
  });

  it('reads a number change that also regenerated the user id (Aug 2026: previous_user_id)', () => {
    expect(changesIn('system-user-changed-number-2026-08.json')).toEqual([
      expect.objectContaining({
        number: { from: '16505551234', to: '12195555358' },
        userId: { from: 'US.10101010101010101010', to: 'US.13491208655302741918' },
      }),
    ]);
  });

  it('reads a user id change alone, without a number (Aug 2026)', () => {
    const [change] = changesIn('system-user-changed-user-id-2026-08.json');
    expect(change).toEqual(expect.objectContaining({ userId: { from: 'US.10101010101010101010', to: 'US.13491208655302741918' } }));
    expect(change.number).toBeUndefined();
  });

  it("takes the old user id from the body when previous_user_id is missing (May 2026), only when the body's new id is system.user_id", () => {
    expect(changesIn('system-user-changed-user-id-2026-05.json')).toEqual([
      expect.objectContaining({ userId: { from: 'US.10101010101010101010', to: 'US.13491208655302741918' } }),
    ]);
    // A body that names numbers says nothing of the old user id; with no old number either, there is nothing to move.
    const numbersInBody = systemMessage({ body: 'User Sheena Nelson changed from 16505551234 to 12195555358', user_id: 'US.2', type: 'user_changed_user_id' });
    expect(readWebhook(numbersInBody).identityChanges).toEqual([]);
  });

  it('with the old number but no old user id, the new user id goes to the old number', () => {
    const change = systemMessage({ wa_id: '12195555358', user_id: 'US.2', type: 'user_changed_user_id' }, '16505551234');
    expect(readWebhook(change).identityChanges).toEqual([
      expect.objectContaining({ number: { from: '16505551234', to: '12195555358' }, userId: { from: null, to: 'US.2' } }),
    ]);
  });

  it('ignores system messages that change nothing or name nothing to find', () => {
    for (const [system, from] of [
      [{ type: 'customer_identity_changed', body: 'User identity changed' }, '16505551234'],
      [{ type: 'customer_identity_changed', wa_id: '12195555358', user_id: 'US.2' }, '16505551234'],
      [{ wa_id: '16505551234', type: 'user_changed_number' }, '16505551234'],
      [{ user_id: 'US.1', previous_user_id: 'US.1', type: 'user_changed_user_id' }, undefined],
      [{ wa_id: 'not a number', type: 'user_changed_number' }, '16505551234'],
    ] as const) {
      expect(readWebhook(systemMessage(system, from)).identityChanges).toEqual([]);
    }
  });
});
