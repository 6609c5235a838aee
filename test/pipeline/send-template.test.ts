/**
 * The template a single message's send renders from (shared/domain/messages/send-template.ts):
 * the one its worker read with the message, while that read is fresh, refused as the contract
 * refuses a template that is gone or not approved (§13); otherwise none, and the request reads it.
 */
import type { StoredMessage } from '#shared/data/message';
import { templateRead } from '#shared/domain/messages/send-template';
import type { Campaign } from '#shared/records/campaign';
import type { Template } from '#shared/records/template';

const message = { template_name: 'welcome', language: 'en_US' } as StoredMessage;
const job = { workspace_id: 'ws', message_id: 'm', template: { name: 'welcome', language: 'en_US' } };
const template = (status: string) => ({ name: 'welcome', language: 'en_US', status }) as Template;

describe('the template a single message renders from', () => {
  it('is the one read with the message while that read is at most a second old', () => {
    expect(templateRead(message, undefined, job, template('APPROVED'), 20)).toEqual(template('APPROVED'));
    expect(templateRead(message, undefined, job, template('APPROVED'), 1500)).toBeUndefined();
  });

  it('is refused as the contract refuses it: paused or disabled is not approved, none is not found', () => {
    expect(() => templateRead(message, undefined, job, template('PAUSED'), 20)).toThrow(expect.objectContaining({ code: 'template_not_approved' }));
    expect(() => templateRead(message, undefined, job, null, 20)).toThrow(expect.objectContaining({ code: 'template_not_found' }));
  });

  it('is left to the request when the job did not name it (a job queued before jobs did), or named another', () => {
    expect(templateRead(message, undefined, { workspace_id: 'ws', message_id: 'm' }, undefined, 20)).toBeUndefined();
    expect(templateRead(message, undefined, { ...job, template: { name: 'welcome', language: 'es_ES' } }, template('APPROVED'), 20)).toBeUndefined();
  });

  it("is the campaign's copy for a campaign's message", () => {
    const copy = template('APPROVED');
    expect(templateRead(message, { template: copy } as Campaign, job, template('PAUSED'), 20)).toBe(copy);
  });
});
