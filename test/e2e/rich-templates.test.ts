import { useLocalStack } from '../support/local-stack';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const { local, call } = useLocalStack();

const simulator = simulatorControl(() => local().stack.simulator_url);
const IMAGE = 'https://cdn.example.com/spring.jpg';

describe('rich templates on the local stack', () => {
  it('sends login_code to read, the OTP button carrying the body code', async () => {
    const sent = await call('POST', '/api/v1/messages', { to: '+1 415 555 0931', template: 'login_code', variables: ['731904'] });
    expect(sent.status).toBe(202);
    const read = (
      await eventually(
        () => call('GET', `/api/v1/messages/${sent.body.data.message_id}`),
        (r) => r.body.data.status === 'read',
        30_000,
      )
    ).body.data;
    expect(read.content).toBe('731904 is your verification code.');
    expect(read.rendered.buttons).toEqual([{ index: 0, type: 'OTP', text: 'Copy code', value: '731904' }]);
    const [request] = await simulator.sends('14155550931');
    expect((request.request.template as { components: unknown[] }).components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: '731904' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '731904' }] },
    ]);
  });

  it('completes a spring_promo campaign with an image header and per-recipient URL suffixes, with exact metrics', async () => {
    const campaign = (await call('POST', '/api/v1/campaigns', { name: 'Spring promo', template_name: 'spring_promo' })).body.data;
    const numbers = ['14155550941', '14155550942', '14155550943', '14155559999'];
    const launch = await call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      recipients: numbers.map((phone, i) => ({ phone, name: `R${i}`, buttons: [{ index: 0, value: `r${i}` }] })),
      template_variables: ['20%', 'Sunday'],
      template_header: { image: { link: IMAGE } },
    });
    expect(launch.status).toBe(202);
    const results = () => call('GET', `/api/v1/campaigns/${campaign.id}/results`);
    await eventually(results, (r) => r.body.data.status === 'completed', 60_000);
    // Completed once every message left `queued`; the 9999 number's failure and the reads follow as status reports.
    const settled = (await eventually(results, (r) => r.body.data.metrics.read + r.body.data.metrics.failed === 4, 30_000)).body.data;
    expect(settled.metrics).toMatchObject({ total_messages: 4, pending: 0, sent: 0, delivered: 0, read: 3, failed: 1 });
    for (const [i, phone] of numbers.entries()) {
      const [request] = await simulator.sends(phone);
      expect((request.request.template as { components: unknown[] }).components).toEqual([
        { type: 'header', parameters: [{ type: 'image', image: { link: IMAGE } }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: '20%' },
            { type: 'text', text: 'Sunday' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: `r${i}` }] },
        { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'Stop promotions' }] },
      ]);
    }
  });

  it('shows holiday_hours as MARKETING once the platform recategorises it (template_category_update)', async () => {
    const category = async () => (await call('GET', '/api/v1/templates?name=holiday_hours&language=en_US')).body.data[0].category;
    expect(await category()).toBe('UTILITY');
    await simulator.templateCategory({ waba_id: local().credentials.waba_id, name: 'holiday_hours', language: 'en_US', category: 'MARKETING' });
    await eventually(category, (c) => c === 'MARKETING', 30_000);
  });
});
