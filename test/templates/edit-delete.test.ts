import { useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

/** Contract §18: editing a template's components, the platform's limits on edits, and deleting one or every language. */
const api = useTestApi({ runtime: true, statusIntervalMs: 20 });
const simulator = simulatorControl(() => api.simulator.url);

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
});

const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, body });
const listed = async (status: string, name: string) =>
  (await call('GET', `/api/v1/templates?status=${status}&name=${name}`)).body.data as Record<string, any>[];
const textOnly = (name: string, language = 'en_US') => ({
  name,
  language,
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your code is ready, {{1}}.', example: { body_text: [['Ada']] } }],
});

describe('editing and deleting', () => {
  it('edits the components; the platform refuses an approved template edited again within a day', async () => {
    const created = (await call('POST', '/api/v1/templates', textOnly('editable'))).body.data;
    const approve = () => simulator.templateStatus({ waba_id: ws.wabaId, name: 'editable', language: 'en_US', event: 'APPROVED' });
    await approve();
    await eventually(
      () => listed('APPROVED', 'editable'),
      (list) => list.length === 1,
    );
    const category = await call('PATCH', `/api/v1/templates/${created.id}`, { ...textOnly('editable'), category: 'MARKETING' });
    expect(category.status).toBe(422);
    expect(category.body.error.details).toEqual([{ field: 'category', message: expect.any(String) }]);

    const components = [{ type: 'BODY', text: 'Your new code is ready, {{1}}.', example: { body_text: [['Ada']] } }];
    const edited = await call('PATCH', `/api/v1/templates/${created.id}`, { components });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: created.id, status: 'PENDING', content: 'Your new code is ready, {{1}}.' });

    await approve();
    await eventually(
      () => listed('APPROVED', 'editable'),
      (list) => list.length === 1,
    );
    const tooSoon = await call('PATCH', `/api/v1/templates/${created.id}`, { components });
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body.error.code).toBe('platform_error');
    expect(tooSoon.body.error.details).toEqual(expect.arrayContaining([{ field: 'error_user_msg', message: expect.stringContaining('once in 24 hours') }]));
  });

  it('deletes one language, then every language of the name', async () => {
    const ids: Record<string, string> = {};
    for (const language of ['en_US', 'es_ES', 'fr_FR'])
      ids[language] = (await call('POST', '/api/v1/templates', textOnly('multilingual', language))).body.data.id;
    const one = await call('DELETE', `/api/v1/templates/${ids.en_US}`);
    expect(one.body.data).toEqual({ id: ids.en_US, name: 'multilingual', languages: ['en_US'], deleted: true });
    expect((await listed('PENDING', 'multilingual')).map((t) => t.language)).toEqual(['es_ES', 'fr_FR']);

    const all = await call('DELETE', `/api/v1/templates/${ids.es_ES}?all_languages=true`);
    expect(all.body.data).toEqual({ id: ids.es_ES, name: 'multilingual', languages: ['es_ES', 'fr_FR'], deleted: true });
    expect(await listed('PENDING', 'multilingual')).toEqual([]);
    // The platform deleted them too: a sync brings none back.
    await call('POST', '/api/v1/templates/sync');
    expect(await listed('PENDING', 'multilingual')).toEqual([]);
    expect((await call('DELETE', `/api/v1/templates/${ids.es_ES}`)).status).toBe(404);
  });

  it('answers 400 for a template id that is not the platform’s', async () => {
    expect((await call('DELETE', '/api/v1/templates/not-an-id')).status).toBe(400);
  });
});
