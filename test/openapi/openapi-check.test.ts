import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { checkEvent, checkReply } from '../support/openapi-check';

/** The check every test API answer goes through must refuse what the document does not promise. */

const requestId = randomUUID();
const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...headers }),
  body,
});
const group = { id: randomUUID(), name: 'VIP', description: null, contacts_count: 2, created_at: '2026-11-22T10:15:30.123Z' };
const ok = (data: unknown) => reply(200, { success: true, data, request_id: requestId });
const error = (status: number, code: string, headers?: Record<string, string>) =>
  reply(status, { success: false, error: { code, message: 'No' }, request_id: requestId }, headers);
const path = `/api/v1/groups/${group.id}`;

describe('checkReply', () => {
  it('accepts an answer as documented', () => {
    expect(() => checkReply('GET', path, ok(group))).not.toThrow();
    expect(() => checkReply('GET', path, error(404, 'not_found'))).not.toThrow();
  });

  it('refuses a field the document does not name, a missing one, and a wrong type', () => {
    expect(() => checkReply('GET', path, ok({ ...group, secret: 'x' }))).toThrow(/unevaluated properties/);
    const { contacts_count: _left, ...incomplete } = group;
    expect(() => checkReply('GET', path, ok(incomplete))).toThrow(/contacts_count/);
    expect(() => checkReply('GET', path, ok({ ...group, contacts_count: '2' }))).toThrow(/must be integer/);
  });

  it("refuses a timestamp not in the contract's form", () => {
    expect(() => checkReply('GET', path, ok({ ...group, created_at: '2026-11-22T10:15:30Z' }))).toThrow(/date-time/);
  });

  it('refuses a status the operation does not document, and a code its status does not', () => {
    expect(() => checkReply('GET', path, error(409, 'invalid_state'))).toThrow(/status not documented/);
    expect(() => checkReply('GET', path, error(404, 'route_not_found'))).toThrow(/allowed values/);
    expect(() => checkReply('GET', path, error(403, 'forbidden'))).toThrow(/allowed values/);
  });

  it('refuses an answer without its required headers', () => {
    expect(() => checkReply('GET', path, error(429, 'rate_limited'))).toThrow(/Retry-After/);
    const limited = error(429, 'rate_limited', { 'Retry-After': '1', 'RateLimit-Limit': '20', 'RateLimit-Remaining': '0' });
    expect(() => checkReply('GET', path, limited)).not.toThrow();
  });

  it('takes only route_not_found from a route or method the document does not list', () => {
    expect(() => checkReply('PUT', path, error(404, 'route_not_found'))).not.toThrow();
    expect(() => checkReply('GET', '/api/v1/nothing', error(404, 'route_not_found'))).not.toThrow();
    expect(() => checkReply('GET', '/api/v1/nothing', ok(group))).toThrow(/not a documented route/);
  });
});

describe('checkEvent', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const ping = { id: randomUUID(), type: 'ping', created_at: '2026-11-22T10:15:30.000Z', workspace_id: randomUUID(), data: { webhook_id: randomUUID() } };
  /** The headers a subscriber receives with this body, signed as the service signs. */
  const delivered = (event: object, id = ping.id) => {
    const body = JSON.stringify(event);
    const timestamp = new Date();
    const signature = new Webhook(secret).sign(id, timestamp, body);
    return { headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature }, body };
  };

  it('accepts an event as documented', () => {
    const { headers, body } = delivered(ping);
    expect(() => checkEvent(headers, body)).not.toThrow();
  });

  it('refuses an event type the document does not list, and data not of its type', () => {
    const unknown = delivered({ ...ping, type: 'message.queued' });
    expect(() => checkEvent(unknown.headers, unknown.body)).toThrow(/not one of the document's webhooks/);
    const extra = delivered({ ...ping, data: { ...ping.data, secret: 'x' } });
    expect(() => checkEvent(extra.headers, extra.body)).toThrow(/unevaluated properties/);
    const contactData = delivered({ ...ping, type: 'contact.deleted' });
    expect(() => checkEvent(contactData.headers, contactData.body)).toThrow(/phone_number/);
  });

  it('refuses a missing or malformed Standard Webhooks header, and a webhook-id that is not the event id', () => {
    const { headers, body } = delivered(ping);
    const { 'webhook-signature': _left, ...unsigned } = headers;
    expect(() => checkEvent(unsigned, body)).toThrow(/webhook-signature missing/);
    expect(() => checkEvent({ ...headers, 'webhook-timestamp': '2026-11-22' }, body)).toThrow(/webhook-timestamp/);
    const otherId = delivered(ping, randomUUID());
    expect(() => checkEvent(otherId.headers, otherId.body)).toThrow(/is not the event id/);
  });
});
