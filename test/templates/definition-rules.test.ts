import { useTestApi, type TestWorkspace } from '../support/api';

/**
 * Contract §18: every rule checked before the platform is called answers 422 `validation_error`
 * naming its field, one `details` entry per problem, and nothing reaches the platform.
 */
const api = useTestApi();
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await api.workspace();
});

type Definition = Record<string, any>;
const valid = (): Definition => ({
  name: 'rule_check',
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is ready.', example: { body_text: [['Ada', 'A-1']] } },
    { type: 'FOOTER', text: 'Thanks for shopping' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Yes' },
        { type: 'QUICK_REPLY', text: 'No' },
        { type: 'URL', text: 'Track', url: 'https://shop.example.com/t/{{1}}', example: ['https://shop.example.com/t/A-1'] },
      ],
    },
  ],
});
const create = (body: Definition) => api.call('POST', '/api/v1/templates', { key: ws.key, body });
const fieldsOf = (reply: { body: { error: { details?: { field: string }[] } } }) => reply.body.error.details?.map((d) => d.field) ?? [];

/** Each case breaks one rule of a valid definition, and names the one field that must be reported. */
const cases: [string, (d: Definition) => void, string][] = [
  ['name with capitals', (d) => (d.name = 'Rule_Check'), 'name'],
  ['name over 512 characters', (d) => (d.name = 'a'.repeat(513)), 'name'],
  ['body over 1,024 characters', (d) => (d.components[1].text = `Hi {{1}} {{2}} ${'x'.repeat(1020)}`), 'components.1.text'],
  ['header text over 60 characters', (d) => (d.components[0].text = `Order {{1}} ${'x'.repeat(60)}`), 'components.0.text'],
  [
    'header text with two placeholders',
    (d) => Object.assign(d.components[0], { text: 'Order {{1}} {{2}}', example: { header_text: ['A', 'B'] } }),
    'components.0.text',
  ],
  ['footer over 60 characters', (d) => (d.components[2].text = 'x'.repeat(61)), 'components.2.text'],
  ['positional placeholders with a gap', (d) => Object.assign(d.components[1], { text: 'Hi {{1}}, order {{3}}.' }), 'components.1.text'],
  ['positional placeholders not from 1', (d) => Object.assign(d.components[1], { text: 'Hi {{2}}, order {{3}}.' }), 'components.1.text'],
  [
    'named placeholder with capitals',
    (d) => {
      d.parameter_format = 'NAMED';
      d.components = [{ type: 'BODY', text: 'Hi {{First}}', example: { body_text_named_params: [{ param_name: 'First', example: 'Ada' }] } }];
    },
    'components.0.text',
  ],
  ['body placeholder without example', (d) => (d.components[1].example = { body_text: [['Ada']] }), 'components.1.example.body_text'],
  ['header placeholder without example', (d) => delete d.components[0].example, 'components.0.example.header_text'],
  [
    'named placeholder without example',
    (d) => {
      d.parameter_format = 'NAMED';
      d.components = [{ type: 'BODY', text: 'Hi {{first}}, {{order_id}}', example: { body_text_named_params: [{ param_name: 'first', example: 'Ada' }] } }];
    },
    'components.0.example.body_text_named_params',
  ],
  [
    'more than 10 buttons',
    (d) => (d.components[3].buttons = Array.from({ length: 11 }, (_, i) => ({ type: 'QUICK_REPLY', text: `Option ${i}` }))),
    'components.3.buttons',
  ],
  [
    'quick replies not grouped',
    (d) => (d.components[3].buttons = [d.components[3].buttons[0], d.components[3].buttons[2], d.components[3].buttons[1]]),
    'components.3.buttons.2.type',
  ],
  ['URL placeholder not at the end', (d) => (d.components[3].buttons[2].url = 'https://shop.example.com/{{1}}/track'), 'components.3.buttons.2.url'],
];

describe('POST /api/v1/templates: the rules checked before the platform', () => {
  it('accepts the valid definition the cases start from', async () => {
    const reply = await create({ ...valid(), name: 'rule_check_valid' });
    expect(reply.status).toBe(201);
  });

  it.each(cases)('%s: 422 naming the field', async (_rule, breakIt, field) => {
    const definition = valid();
    breakIt(definition);
    const reply = await create(definition);
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('validation_error');
    expect(fieldsOf(reply)).toEqual([field]);
  });

  it('reports every broken rule at once, one detail each', async () => {
    const definition = valid();
    definition.name = 'Bad Name';
    definition.components[0] = { type: 'HEADER', format: 'TEXT', text: `{{1}} {{2}} ${'x'.repeat(60)}` };
    definition.components[1] = { type: 'BODY', text: `Hi {{1}} and {{3}} ${'x'.repeat(1024)}` };
    definition.components[2].text = 'y'.repeat(61);
    definition.components[3].buttons = [
      { type: 'QUICK_REPLY', text: 'Yes' },
      { type: 'URL', text: 'Track', url: 'https://shop.example.com/{{1}}/t', example: ['https://shop.example.com/1/t'] },
      ...Array.from({ length: 9 }, (_, i) => ({ type: 'QUICK_REPLY', text: `Option ${i}` })),
    ];
    const reply = await create(definition);
    expect(reply.status).toBe(422);
    expect(fieldsOf(reply).sort()).toEqual(
      [
        'name',
        'components.0.text', // over 60
        'components.0.text', // two placeholders
        'components.0.example.header_text',
        'components.1.text', // over 1,024
        'components.1.text', // a gap in the numbering
        'components.1.example.body_text',
        'components.2.text',
        'components.3.buttons', // 11 buttons
        'components.3.buttons.2.type', // quick replies split by the URL button
        'components.3.buttons.1.url',
      ].sort(),
    );
  });

  it('refuses another business account than the workspace’s on waba_id', async () => {
    const reply = await create({ ...valid(), waba_id: '999999999999999' });
    expect(reply.status).toBe(422);
    expect(fieldsOf(reply)).toEqual(['waba_id']);
  });

  it('keeps shape errors at 400 (wrong types, unknown component or button type)', async () => {
    const definition = valid();
    definition.components[3].buttons[0].type = 'CALL_ME';
    const reply = await create({ ...definition, category: 'PROMO' });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply).sort()).toEqual(['category', 'components.3.buttons.0.type']);
  });
});
