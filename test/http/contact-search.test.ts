import { useTestApi, type TestWorkspace } from '../support/api';
import { eventually } from '../support/wait';

// Search entries follow a contact through the table's stream (docs/data-model.md, "Search at scale").
const api = useTestApi({ searchIndexing: true });

/**
 * `search` as a client uses it (contract §7, refined in docs/decisions.md): names and emails by
 * a case- and accent-insensitive prefix of any word, numbers by a run of digits only when the
 * term looks like a phone number.
 */
describe('contact search', () => {
  let ws: TestWorkspace;
  const ids = new Map<string, string>();

  const numbers: string[] = [];
  const add = async (body: Record<string, unknown>) => {
    numbers.push(String(body.phone_number));
    const reply = await api.call('POST', '/api/v1/contacts', { key: ws.key, body });
    expect(reply.status).toBe(201);
    ids.set(String(body.name ?? body.phone_number), reply.body.data.id);
  };
  const search = async (query: string) => {
    const reply = await api.call('GET', `/api/v1/contacts?${query}`, { key: ws.key });
    expect(reply.status).toBe(200);
    return {
      names: reply.body.data.map((c: { name: string | null; phone_number: string }) => c.name ?? c.phone_number),
      total: reply.body.pagination.totalCount,
      pagination: reply.body.pagination,
    };
  };
  const names = async (term: string, extra = '') => (await search(`search=${encodeURIComponent(term)}${extra}`)).names;

  beforeAll(async () => {
    ws = await api.workspace();
    // Oldest first: lists are newest first.
    await add({ phone_number: '+1 415 555 0101', name: 'Acme Suite 4B', email: 'front.desk@acme.example', tags: ['office'] });
    await add({ phone_number: '+1 415 555 0102', name: 'Ada Lovelace', email: 'ada@analytical.example', tags: ['VIP'] });
    await add({ phone_number: '+44 20 7946 0958', name: 'José Álvarez', email: 'jose@correo.example', tags: ['vip'] });
    await add({ phone_number: '+81 3 1234 5678', name: '山田太郎', tags: [] });
    await add({ phone_number: '+351 912 345 678', name: 'Ana 🌸 Flores', tags: ['vip'] });
    await add({ phone_number: '+1 212 444 4444', name: 'Suite Life Cafe', tags: ['office'] });
    await add({ phone_number: '+1 646 404 0404', name: '50% Off Shop_Front', tags: [] });
    await add({ phone_number: '+1 917 333 1234', name: null, email: 'nameless@example.com', tags: [] });
    for (let i = 0; i < 12; i++) await add({ phone_number: `+1 305 444 ${String(1000 + i)}`, name: `Member ${i} of Club 4`, tags: i % 2 ? ['vip'] : [] });
    // Each contact is found by its number once the stream has indexed it.
    await eventually(
      () => Promise.all(numbers.map(async (number) => (await search(`search=${encodeURIComponent(number)}`)).total)),
      (totals) => totals.every((total) => total === 1),
    );
  });

  it('a name term matches names containing it at a word start, never numbers that merely hold its digits', async () => {
    expect(await names('Suite 4B')).toEqual(['Acme Suite 4B']);
    expect(await names('suite 4b')).toEqual(['Acme Suite 4B']);
    expect(await names('suite')).toEqual(['Suite Life Cafe', 'Acme Suite 4B']);
    expect(await names('4B')).toEqual(['Acme Suite 4B']);
    // Twelve numbers hold a 4, and "Club 4" is in twelve names: the one digit of "Club 4" matches names only.
    expect((await search(`search=${encodeURIComponent('Club 4')}`)).total).toBe(12);
    expect(await names('lovelace')).toEqual(['Ada Lovelace']);
    expect(await names('LOVE')).toEqual(['Ada Lovelace']);
  });

  it('a phone term matches a run of digits anywhere in the number, in any of five formats, with or without the country code', async () => {
    for (const term of ['+1 (415) 555-0102', '415.555.0102', '1-415-555-0102', '(415) 5550102', '5550102']) expect(await names(term)).toEqual(['Ada Lovelace']);
    expect(await names('+1 (415) 555')).toEqual(['Ada Lovelace', 'Acme Suite 4B']);
    expect(await names('7946 0958')).toEqual(['José Álvarez']);
    expect(await names('555-01')).toEqual(['Ada Lovelace', 'Acme Suite 4B']);
    expect(await names('917 333')).toEqual(['19173331234']);
  });

  it('an email matches whole or at the start of any of its parts', async () => {
    expect(await names('ada@analytical.example')).toEqual(['Ada Lovelace']);
    expect(await names('analytical')).toEqual(['Ada Lovelace']);
    expect(await names('desk@acme')).toEqual(['Acme Suite 4B']);
    expect(await names('NAMELESS@')).toEqual(['19173331234']);
  });

  it('folds case and accents both ways, and finds words in CJK names and emoji', async () => {
    expect(await names('jose')).toEqual(['José Álvarez']);
    expect(await names('ÁLVAREZ')).toEqual(['José Álvarez']);
    expect(await names('alvarez')).toEqual(['José Álvarez']);
    expect(await names('太郎')).toEqual(['山田太郎']);
    expect(await names('山田')).toEqual(['山田太郎']);
    expect(await names('🌸')).toEqual(['Ana 🌸 Flores']);
    expect(await names('flores')).toEqual(['Ana 🌸 Flores']);
  });

  it('treats regex and LIKE metacharacters as text, and a term of punctuation only matches nothing', async () => {
    expect(await names('50%')).toEqual(['50% Off Shop_Front']);
    expect(await names('shop_front')).toEqual(['50% Off Shop_Front']);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('.*')).toEqual([]);
    expect(await names('[a-z]+')).toEqual([]);
    expect(await names('(')).toEqual([]);
    expect(await names('!!!')).toEqual([]);
    expect(await names('zzz')).toEqual([]);
  });

  it('composes with tag (case-insensitive), pages and totalCount', async () => {
    expect(await search('search=club&tag=VIP&pageSize=4')).toMatchObject({
      names: ['Member 11 of Club 4', 'Member 9 of Club 4', 'Member 7 of Club 4', 'Member 5 of Club 4'],
      total: 6,
      pagination: { page: 1, pageSize: 4, totalCount: 6, hasMore: true },
    });
    expect(await search('search=club&tag=vip&pageSize=4&page=2')).toMatchObject({
      names: ['Member 3 of Club 4', 'Member 1 of Club 4'],
      total: 6,
      pagination: { hasMore: false },
    });
    expect(await search('search=club&pageSize=5&page=3')).toMatchObject({ names: ['Member 1 of Club 4', 'Member 0 of Club 4'], total: 12 });
    expect(await search(`search=${encodeURIComponent('+1 305 444')}&tag=vip`)).toMatchObject({ total: 6 });
    expect(await search('search=suite&tag=office')).toMatchObject({ names: ['Suite Life Cafe', 'Acme Suite 4B'], total: 2 });
    expect(await search('search=ada&tag=office')).toMatchObject({ names: [], total: 0 });
    expect(await search('search=a&tag=nosuchtag')).toMatchObject({ names: [], total: 0 });
  });

  it('follows renames, new emails, new numbers and deletes', async () => {
    const other = await api.workspace();
    const created = await api.call('POST', '/api/v1/contacts', {
      key: other.key,
      body: { phone_number: '+1 415 555 0199', name: 'Grace Hopper', email: 'grace@navy.example' },
    });
    const id = created.body.data.id;
    const found = async (term: string) =>
      (await api.call('GET', `/api/v1/contacts?search=${encodeURIComponent(term)}`, { key: other.key })).body.pagination.totalCount;
    const foundAll = (terms: string[], expected: number[]) =>
      eventually(
        () => Promise.all(terms.map(found)),
        (totals) => totals.join() === expected.join(),
      );
    await foundAll(['hopper'], [1]);

    await api.call('PATCH', `/api/v1/contacts/${id}`, {
      key: other.key,
      body: { name: 'Grace Brewster', email: 'gb@yale.example', phone_number: '+1 212 555 0199' },
    });
    await foundAll(['hopper', 'navy', '415 555 0199', 'brewster', 'yale', '212 555 0199', 'grace'], [0, 0, 0, 1, 1, 1, 1]);

    await api.call('DELETE', `/api/v1/contacts/${id}`, { key: other.key });
    await foundAll(['brewster', 'yale', '212 555'], [0, 0, 0]);
    // Another workspace's contacts are never found.
    expect(await names('brewster')).toEqual([]);
  });

  it("finds a bulk import's contacts once the stream has indexed them, and a contact renamed in quick succession by its last name only", async () => {
    const other = await api.workspace();
    const total = async (term: string) =>
      (await api.call('GET', `/api/v1/contacts?search=${encodeURIComponent(term)}`, { key: other.key })).body.pagination.totalCount as number;
    const contacts = Array.from({ length: 300 }, (_, i) => ({ phone: `+1 786 555 ${String(1000 + i)}`, name: `Imported ${i}` }));
    const imported = await api.call('POST', '/api/v1/contacts/bulk', { key: other.key, body: { contacts } });
    expect(imported.body.data.processed_count).toBe(300);
    await eventually(
      () => Promise.all([total('imported'), total('786 555'), total('imported 29')]),
      (totals) => totals.join() === '300,300,11',
      30_000,
    );

    // Five writes in a row land in one or several stream batches: the entries end as the last write left the contact.
    const id = imported.body.data.contacts[0].id;
    for (const name of ['Ravel', 'Satie', 'Debussy', 'Faure', 'Poulenc'])
      expect((await api.call('PATCH', `/api/v1/contacts/${id}`, { key: other.key, body: { name } })).status).toBe(200);
    await eventually(
      () => Promise.all(['imported 0', 'ravel', 'satie', 'debussy', 'faure', 'poulenc'].map(total)),
      (totals) => totals.join() === '0,0,0,0,0,1',
    );
  }, 60_000);

  it('refuses an empty, blank or 1,000-character term with validation_error', async () => {
    for (const term of ['', '   ', 'x'.repeat(1000)]) {
      const reply = await api.call('GET', `/api/v1/contacts?search=${encodeURIComponent(term)}`, { key: ws.key });
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('validation_error');
      expect(reply.body.error.details[0].field).toBe('search');
    }
  });
});
