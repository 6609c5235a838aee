import { startSimulator, type Simulator } from '#simulator/server';
import { APP_SECRET, TOKEN } from './support';

/** The simulator's Embedded Signup, code exchange and registration, in the platform's shapes (docs/platform-requests.md §13). */
let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, accessTokens: [TOKEN], appSecret: APP_SECRET });
});
afterAll(() => simulator.stop());

const call = async (method: string, path: string, token?: string, body?: unknown) => {
  const reply = await fetch(`${simulator.url}${path}`, {
    method,
    headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: reply.status, body: (await reply.json()) as any };
};

const signup = async (body: Record<string, unknown> = {}) =>
  (await call('POST', '/_simulate/embedded-signup', undefined, body)).body as { code: string; phone_number_id: string; waba_id: string; pin: string };

const exchange = (code: string, secret = APP_SECRET) =>
  call('GET', `/v23.0/oauth/access_token?${new URLSearchParams({ client_id: '100000000000001', client_secret: secret, code })}`);

const graphError = (code: number, message: string) => ({
  error: { message, type: 'OAuthException', code, fbtrace_id: expect.any(String) },
});

describe('Embedded Signup', () => {
  it('creates a business account with one number and answers { code, phone_number_id, waba_id, pin }', async () => {
    const business = await signup();
    expect(business).toEqual({
      code: expect.any(String),
      phone_number_id: expect.stringMatching(/^\d{15}$/),
      waba_id: expect.stringMatching(/^\d{15}$/),
      pin: expect.stringMatching(/^\d{6}$/),
    });
    const number = await call('GET', `/v23.0/${business.phone_number_id}?fields=verified_name`, TOKEN);
    expect(number.body).toEqual({ id: business.phone_number_id, verified_name: 'Signed-up Business' });
  });

  it('exchanges a code once for a business token the Graph routes accept; a used, expired or unknown code and a wrong app secret are OAuthExceptions', async () => {
    const business = await signup();
    const exchanged = await exchange(business.code);
    expect(exchanged).toEqual({ status: 200, body: { access_token: expect.any(String), token_type: 'bearer' } });
    const token = exchanged.body.access_token as string;
    expect((await call('POST', `/v23.0/${business.waba_id}/subscribed_apps`, token)).body).toEqual({ success: true });

    expect(await exchange(business.code)).toEqual({ status: 400, body: graphError(100, 'This authorization code has been used.') });
    const late = await signup({ code_ttl_ms: 0 });
    expect(await exchange(late.code)).toEqual({ status: 400, body: graphError(100, 'This authorization code has expired.') });
    expect((await exchange('nonsense')).body.error.code).toBe(100);
    const fresh = await signup();
    expect(await exchange(fresh.code, 'wrong')).toEqual({ status: 400, body: graphError(1, 'Error validating client secret.') });
  });

  it("registers a number with its PIN ({ success: true }); a wrong PIN is 133005; another business's token cannot reach the number", async () => {
    const business = await signup();
    const token = (await exchange(business.code)).body.access_token as string;
    const register = (pin: string, as = token, body: Record<string, unknown> = { messaging_product: 'whatsapp', pin }) =>
      call('POST', `/v23.0/${business.phone_number_id}/register`, as, body);

    const wrong = await register(business.pin === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual(expect.objectContaining({ code: 133005, message: '(#133005) Two step verification PIN Mismatch' }));
    expect((await register(business.pin, token, { pin: business.pin })).body.error.code).toBe(100);

    const other = await signup();
    const otherToken = (await exchange(other.code)).body.access_token as string;
    const foreign = await register(business.pin, otherToken);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toEqual(expect.objectContaining({ code: 100, error_subcode: 33 }));

    expect(await register(business.pin)).toEqual({ status: 200, body: { success: true } });
  });

  it('fails each onboarding call while its fault is switched on (HTTP 500, code 1)', async () => {
    const business = await signup();
    const token = (await exchange(business.code)).body.access_token as string;
    const calls: Record<string, () => ReturnType<typeof call>> = {
      code_exchange: async () => exchange((await signup()).code),
      register: () => call('POST', `/v23.0/${business.phone_number_id}/register`, token, { messaging_product: 'whatsapp', pin: business.pin }),
      subscribed_apps: () => call('POST', `/v23.0/${business.waba_id}/subscribed_apps`, token),
      phone_number: () => call('GET', `/v23.0/${business.phone_number_id}`, token),
      message_templates: () => call('GET', `/v23.0/${business.waba_id}/message_templates`, token),
    };
    try {
      for (const [fault, run] of Object.entries(calls)) {
        await call('POST', '/_simulate/faults', undefined, { onboarding_fault: fault });
        const failed = await run();
        expect([fault, failed.status, failed.body.error.code]).toEqual([fault, 500, 1]);
        await call('DELETE', '/_simulate/faults');
        expect([fault, (await run()).status]).toEqual([fault, 200]);
      }
    } finally {
      await call('DELETE', '/_simulate/faults');
    }
    expect((await call('POST', '/_simulate/faults', undefined, { onboarding_fault: 'nope' })).status).toBe(400);
  });
});
