import { Webhook } from 'standardwebhooks';
import { useLocalStack } from '../support/local-stack';
import { startReceiver } from '../support/receiver';
import { eventually } from '../support/wait';

const { call } = useLocalStack();

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.stop());

describe('outbound webhooks on the local stack', () => {
  it('delivers verified ping, message, contact and campaign events; a failed delivery is retried about 5 s later with the same webhook-id', async () => {
    const sub = (await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['*'] })).body.data;
    const verify = (r: { body: string; headers: Record<string, unknown> }) =>
      new Webhook(sub.signing_secret).verify(r.body, r.headers as Record<string, string>) as { type: string; id: string };

    expect((await call('POST', `/api/v1/webhooks/${sub.id}/test`)).body.data.success).toBe(true);
    const contact = (await call('POST', '/api/v1/contacts', { phone_number: '+14155551801', name: 'Events' })).body.data;
    await call('PATCH', `/api/v1/contacts/${contact.id}`, { name: 'Events Two' });
    await call('POST', '/api/v1/messages', { to: '+14155551802', template: 'hello_world' });
    const campaign = (await call('POST', '/api/v1/campaigns', { name: 'Hooks', template_name: 'hello_world' })).body.data;
    await call('POST', `/api/v1/campaigns/${campaign.id}/launch`, { recipients: [{ phone: '+14155551803' }] });

    const wanted = [
      'ping',
      'contact.created',
      'contact.updated',
      'message.sent',
      'message.delivered',
      'message.read',
      'campaign.started',
      'campaign.completed',
    ];
    const types = () => receiver.received.map((r) => verify(r).type);
    await eventually(
      async () => types(),
      (t) => wanted.every((type) => t.includes(type)),
      60_000,
    );

    // Fail the next contact.created once, then accept.
    const isNewContact = (r: { body: string }) => (JSON.parse(r.body) as { type: string; data: { phone_number?: string } }).data.phone_number === '14155551804';
    receiver.respond((n) => (isNewContact(receiver.received[n - 1]) && receiver.received.filter(isNewContact).length === 1 ? 503 : 200));
    await call('POST', '/api/v1/contacts', { phone_number: '+14155551804' });
    await eventually(
      async () => receiver.received.filter(isNewContact).length,
      (n) => n >= 2,
      20_000,
    );
    const [failedTry, retry] = receiver.received.filter(isNewContact);
    expect(verify(retry).type).toBe('contact.created');
    expect(retry.headers['webhook-id']).toBe(failedTry.headers['webhook-id']);
    expect(retry.at - failedTry.at).toBeGreaterThanOrEqual(4500);
    const retried = (r: { body: { data: { event_id: string; status: string }[] } }) => r.body.data.find((d) => d.event_id === retry.headers['webhook-id']);
    const log = await eventually(
      () => call('GET', '/api/v1/webhooks/' + sub.id + '/deliveries?pageSize=100'),
      (r) => retried(r)?.status === 'succeeded',
    );
    expect(retried(log)).toMatchObject({ event_type: 'contact.created', attempts: 2, last_status_code: 200 });
  }, 120_000);
});
