import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusFailure } from '#simulator/whatsapp-errors';

/**
 * The simulator's `failed` reports against the platform's own: each captured `failed` status
 * (test/fixtures/platform-webhooks, sources in docs/platform-payloads.md) and the error the
 * simulator reports for its code.
 */
const capturedError = (fixture: string) =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures/platform-webhooks', fixture), 'utf8')).entry[0].changes[0].value.statuses[0].errors[0];

describe('the simulator reports failures as the platform does', () => {
  it.each([
    ['status-failed-131049.json', 131049],
    ['status-failed-131047-java.json', 131047],
    ['status-failed-130472-pywa.json', 130472],
  ])('%s: the same error, field for field', (fixture, code) => {
    expect(statusFailure(code)).toEqual(capturedError(fixture));
  });

  it('status-failed-131053-no-href-java.json: the same title (its details name the file the platform refused)', () => {
    const captured = capturedError('status-failed-131053-no-href-java.json');
    expect(statusFailure(131053)).toMatchObject({ code: captured.code, title: captured.title, message: captured.message });
  });

  it('a code with no capture: the error-codes page description as title and details, and no subcode', () => {
    const error = statusFailure(131050);
    expect(error).toEqual({
      code: 131050,
      title: 'This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
      message: error.title,
      error_data: { details: error.title },
      href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
    });
  });
});
