import { parseBoundedJson } from '#shared/bounded-json';
import { flowProblems } from '#shared/domain/messages/kinds/flow-rules';
import { flowReplyOf } from '#shared/platform/flow-reply';
import { readWebhook } from '#shared/platform/webhook-payload';
import type { FlowContent } from '#shared/platform/payloads/flow';

/** The pure parts of contract §21's flows and category updates: what JSON is kept, which flows are refused, how the platform's payloads are read. */
describe('response_json as flow_response', () => {
  it.each([
    ['an object', '{"flow_token":"t","day":"tue"}', { flow_token: 't', day: 'tue' }],
    ['16 levels', `${'['.repeat(16)}1${']'.repeat(16)}`, JSON.parse(`${'['.repeat(16)}1${']'.repeat(16)}`)],
    ['brackets inside strings, not nesting', JSON.stringify({ note: '['.repeat(100) }), { note: '['.repeat(100) }],
  ])('keeps %s', (_name, text, value) => {
    expect(parseBoundedJson(text)).toEqual(value);
  });

  it.each([
    ['not JSON', '{"flow_token":'],
    ['17 levels', `${'['.repeat(17)}1${']'.repeat(17)}`],
    ['100 000 levels (scanned, never parsed)', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['over 64 KB', JSON.stringify({ notes: 'x'.repeat(64 * 1024) })],
    ['a number DynamoDB cannot store', '{"n":1e200}'],
    ['an empty key', '{"":1}'],
  ])('is null for %s', (_name, text) => {
    expect(parseBoundedJson(text)).toBeNull();
  });

  it('reads an nfm_reply: content the body, the interactive kind, and null for a response_json that is no string', () => {
    expect(flowReplyOf({ name: 'flow', body: 'Sent', response_json: '{"flow_token":"t"}' })).toEqual({
      content: 'Sent',
      interactive: { type: 'nfm_reply', id: null, title: 'Sent', description: null },
      flow_response: { flow_token: 't' },
    });
    expect(flowReplyOf({ name: 'flow', body: 'Sent', response_json: { flow_token: 't' } }).flow_response).toBeNull();
    expect(flowReplyOf(undefined)).toMatchObject({ content: '', flow_response: null });
  });
});

describe('flow rules', () => {
  const flow: FlowContent = { type: 'flow', flow_id: '1', flow_cta: 'Go', flow_token: 't' };
  it('accepts the least a flow needs', () => {
    expect(flowProblems(flow)).toEqual([]);
  });
  it('names each broken rule, by its field', () => {
    expect(
      flowProblems({ ...flow, flow_token: undefined, flow_id: undefined, flow_action: 'data_exchange', screen: 'S', data: {} }).map((p) => p.field),
    ).toEqual(['interactive.flow_token', 'interactive.flow_id', 'interactive.screen', 'interactive.data', 'interactive.data']);
    expect(flowProblems({ ...flow, data: { n: Number.POSITIVE_INFINITY } })).toEqual([expect.objectContaining({ field: 'interactive.data' })]);
  });
});

describe('template_category_update', () => {
  const webhook = (value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', time: 1746169200, changes: [{ field: 'template_category_update', value }] }],
  });
  const names = { message_template_id: 278077987957091, message_template_name: 'welcome_template', message_template_language: 'en-US' };

  it('reads the change and the warning as the category the template has now', () => {
    expect(readWebhook(webhook({ ...names, previous_category: 'UTILITY', new_category: 'MARKETING' })).categoryUpdates).toEqual([
      { wabaId: '102290129340398', name: 'welcome_template', language: 'en_US', category: 'MARKETING' },
    ]);
    expect(
      readWebhook(webhook({ ...names, new_category: 'UTILITY', correct_category: 'MARKETING', category_update_timestamp: 1746169200 })).categoryUpdates,
    ).toEqual([{ wabaId: '102290129340398', name: 'welcome_template', language: 'en_US', category: 'UTILITY' }]);
  });

  it('skips one without a name or category', () => {
    expect(readWebhook(webhook({ message_template_name: 'x', message_template_language: 'en_US' })).categoryUpdates).toEqual([]);
  });
});
