import { useLocalStack } from '../support/local-stack';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const { local, call } = useLocalStack();

const simulator = simulatorControl(() => local().stack.simulator_url);
const status = (id: string, wanted: string) =>
  eventually(
    () => call('GET', `/api/v1/messages/${id}`),
    // Thirty pollers together exceed the workspace's request rate: a 429 means poll again.
    (r) => r.status === 200 && r.body.data.status === wanted,
    30_000,
  ).then((r) => r.body.data);

describe('messaging on the local stack', () => {
  it('delivers a template message to read with its rendered content', async () => {
    const sent = await call('POST', '/api/v1/messages', { to: '+1 415 555 0901', template: 'order_update', variables: ['Ada', 'A-1'] });
    expect(sent.status).toBe(202);
    const read = await status(sent.body.data.message_id, 'read');
    expect(read.content).toBe('Hi Ada, your order A-1 has shipped.');
    expect(read.provider_message_id).toMatch(/^wamid\./);
  });

  it('ends a 9999 number failed with 131026', async () => {
    const sent = await call('POST', '/api/v1/messages', { to: '+14155559999', template: 'hello_world' });
    const failed = await status(sent.body.data.message_id, 'failed');
    expect(failed.error).toEqual({ code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' });
  });

  it('sends 30 concurrent messages, each reaching the platform exactly once', async () => {
    const numbers = Array.from({ length: 30 }, (_, i) => `1415555${String(2000 + i)}`);
    const replies = await Promise.all(numbers.map((to, i) => call('POST', '/api/v1/messages', { to, template: 'welcome', variables: [`C${i}`] })));
    expect(replies.every((r) => r.status === 202)).toBe(true);
    await Promise.all(replies.map((r) => status(r.body.data.message_id, 'read')));
    for (const to of numbers) expect(await simulator.sends(to)).toHaveLength(1);
  });

  it('opens the session window when the customer writes, then sends text', async () => {
    await simulator.inbound({ phone_number_id: local().credentials.phone_number_id, from: '14155550902', text: 'Hi!', name: 'Sam' });
    await eventually(
      () => call('GET', '/api/v1/messages?direction=inbound&phone=14155550902'),
      (r) => r.body.data.length === 1,
    );
    // The customer is a contact, found by search once the stream has indexed it.
    await eventually(
      () => call('GET', '/api/v1/contacts?search=sam'),
      (r) => r.body.data.length === 1,
    );
    const text = await call('POST', '/api/v1/messages', { to: '14155550902', text: 'Hello Sam' });
    expect(text.status).toBe(202);
    await status(text.body.data.message_id, 'read');
  });
});
