/** Campaigns: the API, their fan-out and their scheduled starts. */
import { http, type Operation } from '#shared/service/operation';

export const campaignOperations: Operation[] = [
  {
    name: 'CreateCampaign',
    handler: 'functions/campaigns/create.ts',
    trigger: http('POST', '/api/v1/campaigns'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  { name: 'ListCampaigns', handler: 'functions/campaigns/list.ts', trigger: http('GET', '/api/v1/campaigns'), access: { table: 'readWrite' } },
  { name: 'GetCampaign', handler: 'functions/campaigns/get.ts', trigger: http('GET', '/api/v1/campaigns/{id}'), access: { table: 'readWrite' } },
  {
    name: 'GetCampaignResults',
    handler: 'functions/campaigns/results.ts',
    trigger: http('GET', '/api/v1/campaigns/{id}/results'),
    access: { table: 'readWrite' },
  },
  {
    name: 'LaunchCampaign',
    handler: 'functions/campaigns/launch.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/launch'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  {
    name: 'EstimateCampaign',
    handler: 'functions/campaigns/estimate.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/estimate'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
    timeoutSeconds: 29,
  },
  { name: 'CancelCampaign', handler: 'functions/campaigns/cancel.ts', trigger: http('POST', '/api/v1/campaigns/{id}/cancel'), access: { table: 'readWrite' } },
  { name: 'ResumeCampaign', handler: 'functions/campaigns/resume.ts', trigger: http('POST', '/api/v1/campaigns/{id}/resume'), access: { table: 'readWrite' } },
  {
    name: 'TestCampaign',
    handler: 'functions/campaigns/test.ts',
    trigger: http('POST', '/api/v1/campaigns/{id}/test'),
    access: { table: 'readWrite', platformSecrets: true, graphApi: true },
  },
  { name: 'RetryCampaign', handler: 'functions/campaigns/retry.ts', trigger: http('POST', '/api/v1/campaigns/{id}/retry'), access: { table: 'readWrite' } },
  {
    name: 'FanoutWorker',
    handler: 'functions/campaigns/fanout-worker.ts',
    trigger: { type: 'queue', queue: 'fanout', batchSize: 1 },
    access: { table: 'readWrite', queues: ['fanout'], scheduler: true },
    timeoutSeconds: 300,
  },
  {
    name: 'FanoutDeadLetters',
    handler: 'functions/campaigns/fanout-dead-letters.ts',
    trigger: { type: 'deadLetters', queue: 'fanout', batchSize: 1 },
    access: { table: 'readWrite', queues: ['fanout'] },
    timeoutSeconds: 90,
  },
  // Named for its first job; it also resumes send windows. The name stays: schedules created before an upgrade target its ARN.
  {
    name: 'StartScheduledCampaign',
    handler: 'functions/campaigns/run-schedule.ts',
    trigger: { type: 'scheduleTarget' },
    access: { table: 'readWrite', queues: ['send'] },
    timeoutSeconds: 300,
  },
];
