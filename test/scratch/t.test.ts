import { useTestApi } from '../support/api';
const api = useTestApi();
it('x', async () => {
  const ws = await api.workspaceWithTemplates();
  const r = await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550601', template: 'welcome', variables: ['N'] } });
  console.log(JSON.stringify(r.body));
});
