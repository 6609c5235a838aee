import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signatureHeaders } from '#shared/subscribers/signing';

const body = JSON.stringify({
  id: 'evt_1',
  type: 'message.sent',
  created_at: '2025-01-01T00:00:00.000Z',
  workspace_id: 'ws_1',
  data: { id: 'm1', text: 'héllo ✓' },
});
const now = () => Math.floor(Date.now() / 1000);

describe('newSigningSecret', () => {
  it('is whsec_ + base64 of 32 random bytes', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });
});

describe('signatureHeaders', () => {
  it('verifies with the standardwebhooks library for one secret', () => {
    const secret = newSigningSecret();
    const headers = signatureHeaders({ id: 'evt_1', timestampSeconds: now(), body, secrets: [secret] });
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('verifies with either secret during a rotation', () => {
    const oldSecret = newSigningSecret();
    const newSecret = newSigningSecret();
    const headers = signatureHeaders({ id: 'evt_2', timestampSeconds: now(), body, secrets: [newSecret, oldSecret] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(oldSecret).verify(`${body} `, headers)).toThrow();
  });

  it('matches the library signature and the Standard Webhooks example', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const payload = '{"test": 2432232314}';
    const headers = signatureHeaders({ id, timestampSeconds: 1614265330, body: payload, secrets: [secret] });
    expect(headers['webhook-timestamp']).toBe('1614265330');
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, new Date(1614265330 * 1000), payload));
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('needs a secret', () => {
    expect(() => signatureHeaders({ id: 'e', timestampSeconds: now(), body, secrets: [] })).toThrow();
  });
});
