import { useLocalStack } from '../support/local-stack';
import { eventually } from '../support/wait';

const { call } = useLocalStack();

describe('contacts and groups on the local stack', () => {
  it('imports, searches, groups and deletes contacts over HTTP', async () => {
    const imported = await call('POST', '/api/v1/contacts/bulk', {
      contacts: [
        { phone: '+1 415 555 0801', name: 'Lin Chen', tags: ['Beta'] },
        { phone: '+1 415 555 0802', name: 'Sam Okoro', tags: ['beta', 'vip'] },
        { phone: '+1 415 555 0801', name: 'Lin again' },
        { phone: 'nope' },
      ],
    });
    expect(imported.body.data).toMatchObject({ total_submitted: 4, processed_count: 2, failed_count: 2 });
    const [lin, sam] = imported.body.data.contacts;

    const upserted = await call('POST', '/api/v1/contacts', { phone_number: '14155550801', email: 'lin@example.com', custom_fields: { lang: 'zh' } });
    expect(upserted.status).toBe(200);
    expect(upserted.body.data).toMatchObject({ id: lin.id, name: 'Lin Chen', email: 'lin@example.com', tags: ['Beta'] });

    // Found once the stream has indexed the import.
    const search = await eventually(
      () => call('GET', '/api/v1/contacts?search=oKoR'),
      (reply) => reply.body.data.length > 0,
    );
    expect(search.body.data.map((c: { id: string }) => c.id)).toEqual([sam.id]);
    const beta = await call('GET', '/api/v1/contacts?tag=BETA');
    expect(beta.body.pagination.totalCount).toBe(2);

    const group = (await call('POST', '/api/v1/groups', { name: 'Beta testers' })).body.data;
    const added = await call('POST', `/api/v1/groups/${group.id}/contacts`, { contact_ids: [lin.id, sam.id] });
    expect(added.body.data).toMatchObject({ added_count: 2, total_contacts: 2, not_found_ids: [] });
    const members = await call('GET', `/api/v1/groups/${group.id}/contacts`);
    expect(members.body.pagination.totalCount).toBe(2);

    expect((await call('DELETE', `/api/v1/contacts/${sam.id}`)).status).toBe(200);
    expect((await call('GET', `/api/v1/groups/${group.id}`)).body.data.contacts_count).toBe(1);
    const removed = await call('DELETE', `/api/v1/groups/${group.id}/contacts`, { contact_ids: [lin.id] });
    expect(removed.body.data).toEqual({ group_id: group.id, removed_count: 1, total_contacts: 0 });
    expect((await call('DELETE', `/api/v1/groups/${group.id}`)).status).toBe(200);
    expect((await call('GET', '/api/v1/groups')).body.pagination.totalCount).toBe(0);
    expect((await call('GET', '/api/v1/contacts')).body.pagination.totalCount).toBe(1);
  });
});
