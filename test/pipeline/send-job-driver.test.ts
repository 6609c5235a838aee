/**
 * processSendJob runs the steps the state machine names, deciding on what each step has just read,
 * and treats what throws by where the job stands (docs/messaging.md §2-3). Its steps and endings
 * are stood in for here: no table, queue or platform.
 */
import { errors } from '#shared/errors';
import type { SendRun } from '#shared/domain/messages/send-job-steps';
import type { Ending, Outcome, Stage } from '#shared/domain/messages/send-state-machine';

const mockRan: string[] = [];
const mockStages: Partial<Record<Stage, (run: SendRun) => Promise<Outcome>>> = {};
const mockEnded: Ending[] = [];

jest.mock('#shared/domain/messages/send-job-steps', () => ({
  stages: new Proxy({}, { get: (_, name: Stage) => (run: SendRun) => (mockRan.push(name), mockStages[name]!(run)) }),
}));
jest.mock('#shared/domain/messages/send-job-endings', () => ({ end: async (_run: SendRun, step: Ending) => (mockEnded.push(step), { kind: 'done' }) }));

// After the stand-ins it uses.
import { processSendJob } from '#shared/domain/messages/send-job';

const job = { workspace_id: 'ws', message_id: 'm1' };
const message = { status: 'queued', provider_message_id: null, created_at: new Date().toISOString() };

/** The steps of a send that goes through on its number's probe; `throwAt` makes one of them throw instead. */
function sendSteps(throwAt?: { stage: Stage; error: Error }) {
  Object.assign(mockStages, {
    read_message: async (run) => ((run.message = message as never), { event: 'message_read' }),
    read_workspace: async (run) => ((run.workspace = { id: 'ws' } as never), { event: 'workspace_read', found: true }),
    check_pause: async (run) => ((run.probing = true), { event: 'pause_checked', gate: { kind: 'send', probing: true } }),
    take_slot: async () => ({ event: 'slot_taken', taken: true }),
    claim: async (run) => (Object.assign(run, { token: 't', phase: 'claimed' }), { event: 'claimed', won: true }),
    read_campaign: async () => ({ event: 'campaign_read', cancelled: false, marketing: false, window: null, budget: { kind: 'none' } }),
    build_request: async () => ({ event: 'request_built' }),
    call_platform: async (run) => ((run.phase = 'called'), { event: 'accepted', held: false }),
  } satisfies typeof mockStages);
  if (throwAt)
    mockStages[throwAt.stage] = async (run) => {
      if (throwAt.stage === 'call_platform') run.phase = 'called';
      throw throwAt.error;
    };
}

beforeEach(() => {
  mockRan.length = 0;
  mockEnded.length = 0;
});

describe('processSendJob', () => {
  it('runs the steps in order, each decided on what the one before read, until an ending', async () => {
    sendSteps();
    expect(await processSendJob(job)).toEqual({ kind: 'done' });
    expect(mockRan).toEqual(['read_message', 'read_workspace', 'check_pause', 'take_slot', 'claim', 'read_campaign', 'build_request', 'call_platform']);
    // The probe the pause check gave this send is in the state the platform's answer is decided in.
    expect(mockEnded).toEqual([{ do: 'record_sent', resume: true }]);
  });

  it('under the claim, fails the message on a broken rule and gives the claim back on anything else', async () => {
    sendSteps({ stage: 'build_request', error: errors.refused('template_not_found', 'No template welcome in en_US') });
    await processSendJob(job);
    expect(mockEnded).toEqual([{ do: 'fail', error: { code: 'template_not_found', title: 'No template welcome in en_US' } }]);

    mockEnded.length = 0;
    sendSteps({ stage: 'read_campaign', error: new Error('DynamoDB unavailable') });
    await processSendJob(job);
    expect(mockEnded).toEqual([{ do: 'rethrow', release: true }]);
  });

  it('lets errors through untouched before the claim and after the platform call', async () => {
    sendSteps({ stage: 'take_slot', error: new Error('no secret') });
    await expect(processSendJob(job)).rejects.toThrow('no secret');
    sendSteps({ stage: 'call_platform', error: new Error('crashed mid-call') });
    await expect(processSendJob(job)).rejects.toThrow('crashed mid-call');
    expect(mockEnded).toEqual([]);
  });
});
