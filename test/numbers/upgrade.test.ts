import { GetCommand, PutCommand } from '#shared/data/table/commands';
import { randomDigits } from '#local/random';
import { db, tableName } from '#shared/data/table/client';
import { insertMessage } from '#shared/data/message';
import { recordPause } from '#shared/data/number-pause';
import { newId } from '#shared/ids';
import { useTestApi } from '../support/api';

const api = useTestApi({ runtime: true, statusIntervalMs: 20 });

/**
 * Contract §17, "Upgrade": items written as the service wrote them before several numbers (no
 * number items, no `business_number_id`, windows keyed by the customer only), read through today's
 * code. The workspace's number must become its first, default number and nothing may change for
 * a client that never sends `from`.
 */
describe('upgrade in place to several numbers', () => {
  it('keeps every message, window, pause and campaign of a workspace from before, on its first number', async () => {
    const ws = await api.workspaceWithTemplates();
    // A valid US number of its own: a NANP exchange never starts with 0 or 1, so the exchange is fixed.
    const customer = `1415556${randomDigits(4)}`;
    const now = new Date();
    const at = now.toISOString();

    // A message as stored before: no business_number_id.
    const oldMessage = await insertMessage({
      id: newId(),
      workspace_id: ws.id,
      phone_number: customer,
      direction: 'outbound',
      status: 'delivered',
      message_type: 'template',
      template_name: 'hello_world',
      language: 'en_US',
      content: 'Hello World',
      template_parameters: null,
      rendered: null,
      campaign_id: null,
      provider_message_id: null,
      error: null,
      metadata: { sent_at: at, delivered_at: at, read_at: null, failed_at: null },
      created_at: at,
      updated_at: at,
    });
    // A window as stored before: keyed by the customer's number only.
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { PK: `WS#${ws.id}#WINDOW#${customer}`, SK: 'WINDOW', last_inbound_at: at, expires_at: Math.floor(now.getTime() / 1000) + 25 * 3600 },
      }),
    );

    const numbers = (await api.call('GET', '/api/v1/numbers', { key: ws.key })).body.data;
    expect(numbers).toEqual([expect.objectContaining({ id: ws.phoneNumberId, waba_id: ws.wabaId, is_default: true, status: 'connected' })]);

    const read = (await api.call('GET', `/api/v1/messages/${oldMessage.id}`, { key: ws.key })).body.data;
    expect(read).toMatchObject({ id: oldMessage.id, business_number_id: ws.phoneNumberId, status: 'delivered' });
    const listed = (await api.call('GET', `/api/v1/messages?phone=${customer}`, { key: ws.key })).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: oldMessage.id, business_number_id: ws.phoneNumberId })]);

    // The window the customer opened before is still open, for the first number, without `from`.
    const text = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: customer, text: 'Still here?' } });
    expect(text.status).toBe(202);
    expect(text.body.data.business_number_id).toBe(ws.phoneNumberId);

    // A campaign stored before (no number) sends from the first number, and shows its pause.
    const campaign = (await api.call('POST', '/api/v1/campaigns', { key: ws.key, body: { name: 'Before', template_name: 'hello_world' } })).body.data;
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: await rawCampaign(ws.id, campaign.id),
      }),
    );
    await recordPause(ws.phoneNumberId, { code: 131031, title: 'Account has been locked' }, at, Date.now() + 3_600_000);
    expect((await api.call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { key: ws.key, body: { recipients: [{ phone: customer }] } })).status).toBe(202);
    const results = (await api.call('GET', `/api/v1/campaigns/${campaign.id}/results`, { key: ws.key })).body.data;
    expect(results.paused_reason).toMatchObject({ code: 131031 });
  });
});

/** The campaign item as stored, without the number today's create writes on it. */
async function rawCampaign(ws: string, id: string): Promise<Record<string, unknown>> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: `WS#${ws}#CAMPAIGN#${id}`, SK: 'CAMPAIGN' } }));
  const { business_number_id: _number, ...before } = Item!;
  return before;
}
