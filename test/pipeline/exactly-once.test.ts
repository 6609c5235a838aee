import { processSendJob } from '#shared/domain/messages/send-job';
import { enqueue, queueUrl } from '#shared/queue-client';
import { useTestApi } from '../support/api';
import { simulatorControl } from '../support/simulator';
import { eventually } from '../support/wait';

const api = useTestApi({ runtime: true });
const simulator = simulatorControl(() => api.simulator.url);

describe('one platform call per message', () => {
  it('holds under racing workers and duplicated SQS jobs', async () => {
    const ws = await api.workspace();
    await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: `+1415555020${i}`, template: 'welcome', variables: [`N${i}`] } }),
      ),
    );
    const jobs = replies.map((r) => ({ workspace_id: ws.id, message_id: r.body.data.message_id }));
    // Ten workers per message race the pipeline's own worker, and each job is enqueued three more times.
    await Promise.all([
      ...jobs.flatMap((job) => Array.from({ length: 10 }, () => processSendJob(job))),
      enqueue(queueUrl('send'), [...jobs, ...jobs, ...jobs]),
    ]);
    for (const job of jobs) {
      await eventually(
        () => api.call('GET', `/api/v1/messages/${job.message_id}`, { key: ws.key }),
        (r) => r.body.data.status === 'read',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the duplicated jobs drain
    for (let i = 0; i < 5; i++) expect(await simulator.sends(`1415555020${i}`)).toHaveLength(1);
  });
});
