import { DomainError } from '#shared/errors';
import { fillMacros, prepareTemplate } from '#shared/domain/templates/parameters';
import type { Template } from '#shared/records/template';

const template = (overrides: Partial<Template>): Template => ({
  id: '1',
  name: 't',
  language: 'en_US',
  category: 'UTILITY',
  status: 'APPROVED',
  content: '',
  parameter_format: 'POSITIONAL',
  placeholders: [],
  header: null,
  footer: null,
  buttons: [],
  ...overrides,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, fields: error.details?.map((d) => d.field) };
    throw error;
  }
  throw new Error('not refused');
};

describe('prepareTemplate', () => {
  it('fills positional placeholders by number, wherever they first appear', () => {
    const order = template({ content: 'Order {{2}} for {{1}}', placeholders: ['2', '1'] });
    const fromObject = prepareTemplate(order, { variables: { 1: 'Ann', 2: '#42' } });
    const fromArray = prepareTemplate(order, { variables: ['Ann', '#42'] });
    for (const prepared of [fromObject, fromArray]) {
      expect(prepared.content).toBe('Order #42 for Ann');
      // The platform fills {{1}} with the first body parameter.
      expect(prepared.components).toEqual([
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ann' },
            { type: 'text', text: '#42' },
          ],
        },
      ]);
      expect(prepared.parameters.variables).toEqual(['Ann', '#42']);
    }
  });

  it('does not take placeholder names from Object.prototype', () => {
    const named = template({ content: 'Hi {{constructor}} {{toString}}', parameter_format: 'NAMED', placeholders: ['constructor', 'toString'] });
    expect(refusal(() => prepareTemplate(named, { variables: {} }))).toEqual({
      code: 'template_variables_mismatch',
      fields: ['variables.constructor', 'variables.toString'],
    });
    expect(prepareTemplate(named, { variables: { constructor: 'a', toString: 'b' } }).content).toBe('Hi a b');
  });

  it('refuses a coupon code over the platform limit of 15 characters', () => {
    const coupon = template({ buttons: [{ index: 0, type: 'COPY_CODE', text: 'Copy', url: null, phone_number: null, placeholders: [] }] });
    expect(prepareTemplate(coupon, { buttons: [{ index: 0, value: 'SAVE15SAVE15SAV' }] }).components).toHaveLength(1);
    expect(refusal(() => prepareTemplate(coupon, { buttons: [{ index: 0, value: 'SAVE16SAVE16SAVE' }] }))).toEqual({
      code: 'template_variables_mismatch',
      fields: ['buttons.0.value'],
    });
  });

  it('needs the one-time code when the body has no variable to take it from', () => {
    const otp = template({
      buttons: [
        {
          index: 0,
          type: 'OTP',
          text: 'Copy code',
          url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
          phone_number: null,
          placeholders: ['1'],
        },
      ],
    });
    expect(refusal(() => prepareTemplate(otp, {}))).toEqual({ code: 'template_variables_mismatch', fields: ['buttons.0.value'] });
    expect(prepareTemplate(otp, { buttons: [{ index: 0, value: '123456' }] }).components).toEqual([
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '123456' }] },
    ]);
  });

  it('refuses a button given twice, with or without a value', () => {
    const reply = template({ buttons: [{ index: 0, type: 'QUICK_REPLY', text: 'Stop', url: null, phone_number: null, placeholders: [] }] });
    expect(refusal(() => prepareTemplate(reply, { buttons: [{ index: 0 }, { index: 0, value: 'x' }] }))).toEqual({
      code: 'template_variables_mismatch',
      fields: ['buttons.1.index'],
    });
  });
});

describe('prepareTemplate, text header', () => {
  it('sends a number given for a text header as text', () => {
    const headed = template({ header: { format: 'TEXT', text: 'Order {{1}}', placeholders: ['1'] } });
    const prepared = prepareTemplate(headed, { header: { text: 42 as unknown as string } });
    expect(prepared.components).toEqual([{ type: 'header', parameters: [{ type: 'text', text: '42' }] }]);
    expect(prepared.rendered.header).toEqual({ format: 'TEXT', text: 'Order 42' });
    expect(prepared.parameters.header).toEqual({ text: '42' });
  });
});

describe('fillMacros', () => {
  it('puts names with $ in as they are', () => {
    expect(fillMacros({ variables: ['Dear {{name}} ({{phone}})'] }, '14155550100', "Cash$$Co $' $&")).toEqual({
      variables: ["Dear Cash$$Co $' $& (14155550100)"],
    });
  });
});
