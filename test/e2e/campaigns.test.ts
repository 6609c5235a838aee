import { useLocalStack } from '../support/local-stack';
import { eventually } from '../support/wait';

const { call } = useLocalStack();

describe('campaigns on the local stack', () => {
  it('completes a 1,000-recipient campaign with exact metrics', async () => {
    const campaign = (await call('POST', '/api/v1/campaigns', { name: 'Thousand', template_name: 'order_update' })).body.data;
    // 996 direct recipients, 3 of them ending in 9999 (fail) and 3 in 9998 (never read), plus 4 contacts in a group.
    const recipients = Array.from({ length: 996 }, (_, i) => ({
      phone: `+1415${String(5550000 + i * 7).padStart(7, '0')}`,
      variables: ['{{name}}', `#${i}`],
      name: `R${i}`,
    }));
    ['+14155559999', '+14165559999', '+14175559999'].forEach((phone, i) => (recipients[i] = { phone, variables: ['x', 'y'], name: 'F' }));
    ['+14155559998', '+14165559998', '+14175559998'].forEach((phone, i) => (recipients[10 + i] = { phone, variables: ['x', 'y'], name: 'D' }));
    const imported = await call('POST', '/api/v1/contacts/bulk', {
      contacts: ['+12125550101', '+12125550102', '+12125550103', '+12125550104'].map((phone) => ({ phone, name: 'Member' })),
    });
    const group = (await call('POST', '/api/v1/groups', { name: 'members' })).body.data;
    await call('POST', `/api/v1/groups/${group.id}/contacts`, { contact_ids: imported.body.data.contacts.map((c: { id: string }) => c.id) });

    const launched = await call('POST', `/api/v1/campaigns/${campaign.id}/launch`, {
      recipients,
      group_ids: [group.id],
      template_variables: ['{{name}}', 'member'],
    });
    expect(launched.status).toBe(202);
    expect(launched.body.data.total_recipients).toBe(1000);

    const results = () => call('GET', `/api/v1/campaigns/${campaign.id}/results`).then((r) => r.body.data);
    await eventually(results, (r) => r.status === 'completed', 240_000);
    const final = await eventually(results, (r) => r.metrics.read === 994, 60_000);
    expect(final.metrics).toEqual({
      total_messages: 1000,
      pending: 0,
      sent: 0,
      delivered: 3,
      read: 994,
      failed: 3,
      delivered_rate_pct: 100,
      read_rate_pct: 99,
    });
  }, 360_000);
});
