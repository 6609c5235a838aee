import { freePort } from '#local/ports';
import { startSimulator, type Simulator } from '#simulator/server';

const TOKEN = 'sim-token-1';
const WABA = '102290129340398';

interface GraphErrorBody {
  error: { message: string; type: string; code: number; error_subcode?: number; fbtrace_id: string };
}
interface TemplatePage {
  data: {
    name: string;
    language: string;
    status: string;
    category: string;
    id: string;
    components: { type: string; text: string }[];
    parameter_format: string;
  }[];
  paging?: { cursors: { before: string; after: string }; next?: string; previous?: string };
}

let simulator: Simulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: await freePort(), accessTokens: [TOKEN, 'other-token'], appSecret: 'sim-secret' });
});

afterAll(() => simulator.stop());

const templatesUrl = (query = '', waba = WABA) => `${simulator.url}/v26.0/${waba}/message_templates${query}`;
const bearer = (token = TOKEN) => ({ headers: { Authorization: `Bearer ${token}` } });
/** Templates per page of the simulator's list, and in the whole catalogue of the architecture guide. */
const PAGE = 5;
const CATALOGUE = 13;

/** Every template, following `paging.next`. */
async function allTemplates(waba = WABA): Promise<TemplatePage['data']> {
  const all: TemplatePage['data'] = [];
  for (let url: string | undefined = templatesUrl('', waba); url; ) {
    const page: TemplatePage = (await getJson<TemplatePage>(url, bearer())).body;
    all.push(...page.data);
    url = page.paging?.next;
  }
  return all;
}

async function getJson<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as T, headers: response.headers };
}

describe('simulator basics', () => {
  it('answers /health without a token', async () => {
    expect(await getJson(`${simulator.url}/health`)).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('reports its url and port, and listens on a random port when asked for port 0', async () => {
    expect(simulator.url).toBe(`http://127.0.0.1:${simulator.port}`);
    const other = await startSimulator({ port: 0, accessTokens: [], appSecret: 'sim-secret' });
    try {
      expect(other.port).toBeGreaterThan(0);
      expect((await getJson(`${other.url}/health`)).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});

describe('access token', () => {
  it('accepts the token as a Bearer header', async () => {
    const { status, body, headers } = await getJson<TemplatePage>(templatesUrl(), bearer());
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.data).toHaveLength(PAGE);
  });

  it('accepts the token as the access_token query parameter', async () => {
    const { status, body } = await getJson<TemplatePage>(templatesUrl(`?access_token=other-token`));
    expect(status).toBe(200);
    expect(body.data).toHaveLength(PAGE);
  });

  it.each([
    ['no token', '', undefined],
    ['an unknown bearer token', '', bearer('nope')],
    ['an unknown query token', '?access_token=nope', undefined],
    ['a malformed Authorization header', '', { headers: { Authorization: 'Basic abc' } }],
  ])('rejects %s with 401 and Graph error 190', async (_label, query, init) => {
    const { status, body, headers } = await getJson<GraphErrorBody>(templatesUrl(query), init);
    expect(status).toBe(401);
    expect(body).toEqual({
      error: {
        message: 'Invalid OAuth access token - Cannot parse access token',
        type: 'OAuthException',
        code: 190,
        fbtrace_id: expect.any(String),
      },
    });
    expect(body.error.fbtrace_id.length).toBeGreaterThan(10);
    expect(headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('gives every error a different fbtrace_id', async () => {
    const first = await getJson<GraphErrorBody>(templatesUrl());
    const second = await getJson<GraphErrorBody>(templatesUrl());
    expect(first.body.error.fbtrace_id).not.toBe(second.body.error.fbtrace_id);
  });
});

describe('GET /{version}/{waba_id}/message_templates', () => {
  it('lists the catalogue in Graph shape, a few templates per page', async () => {
    const { body } = await getJson<TemplatePage>(templatesUrl('?fields=name,status'), bearer());
    expect(body.data.map((t) => [t.name, t.language, t.category, t.status])).toEqual([
      ['order_update', 'en_US', 'UTILITY', 'APPROVED'],
      ['order_update', 'es_ES', 'UTILITY', 'APPROVED'],
      ['welcome', 'en_US', 'MARKETING', 'APPROVED'],
      ['hello_world', 'en_US', 'UTILITY', 'APPROVED'],
      ['spring_sale', 'en_US', 'MARKETING', 'PENDING'],
    ]);
    expect(body.data[0]).toEqual({
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      id: expect.stringMatching(/^\d+$/),
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ada', 'A-1001']] } }],
      parameter_format: 'POSITIONAL',
    });
    expect(body.paging?.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
    expect(body.paging?.next).toEqual(expect.stringContaining('after='));
    expect(body.paging?.previous).toBeUndefined();
  });

  it('lists the rich templates with their header, footer, buttons and named parameters', async () => {
    const all = await allTemplates();
    const byName = (name: string) => all.find((t) => t.name === name) as unknown as Record<string, unknown>;
    expect(all.map((t) => t.name)).toEqual(
      expect.arrayContaining(['spring_promo', 'login_code', 'delivery_window', 'invoice_ready', 'store_visit', 'coupon_drop', 'holiday_hours']),
    );
    expect(byName('spring_promo').components).toEqual([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [expect.any(String)] } },
      { type: 'BODY', text: 'Spring sale: {{1}} off everything until {{2}}.', example: { body_text: [['20%', 'Sunday']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/s/{{1}}', example: ['https://shop.example.com/s/spring'] },
          { type: 'QUICK_REPLY', text: 'Stop promotions' },
        ],
      },
    ]);
    expect(byName('delivery_window')).toMatchObject({ parameter_format: 'NAMED', category: 'UTILITY' });
    // Created as OTP, an authentication template's copy-code button is listed as a URL button carrying the code.
    expect(byName('login_code').components).toContainEqual({
      type: 'BUTTONS',
      buttons: [
        {
          type: 'URL',
          text: 'Copy code',
          url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
          example: ['https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp123456'],
        },
      ],
    });
  });

  it('accepts any v<major>.<minor> version', async () => {
    const { status, body } = await getJson<TemplatePage>(`${simulator.url}/v19.0/${WABA}/message_templates`, bearer());
    expect(status).toBe(200);
    expect(body.data).toHaveLength(PAGE);
  });

  it('walks all templates two at a time through paging.next, without duplicates', async () => {
    const seen: string[] = [];
    let url: string | undefined = templatesUrl('?limit=2');
    let pages = 0;
    while (url) {
      expect(url.startsWith(`${simulator.url}/v26.0/${WABA}/message_templates?`)).toBe(true);
      const { status, body }: { status: number; body: TemplatePage } = await getJson<TemplatePage>(url, bearer());
      expect(status).toBe(200);
      expect(body.data.length).toBeLessThanOrEqual(2);
      expect(Buffer.from(body.paging!.cursors.after, 'base64').length).toBeGreaterThan(0);
      seen.push(...body.data.map((t) => t.id));
      url = body.paging?.next;
      if (++pages > 10) throw new Error('pagination does not end');
    }
    expect(pages).toBe(Math.ceil(CATALOGUE / 2));
    expect(seen).toHaveLength(CATALOGUE);
    expect(new Set(seen).size).toBe(CATALOGUE);
  });

  it('carries a query-string access_token over into paging.next', async () => {
    const first = await getJson<TemplatePage>(templatesUrl('?limit=4&access_token=other-token'));
    expect(new URL(first.body.paging!.next!).searchParams.get('access_token')).toBe('other-token');
    const second = await getJson<TemplatePage>(first.body.paging!.next!);
    expect(second.status).toBe(200);
    expect(second.body.data.map((t) => t.name)).toEqual(['spring_sale', 'old_offer', 'spring_promo', 'login_code']);
    expect(new URL(second.body.paging!.next!).searchParams.get('access_token')).toBe('other-token');
  });

  it('pages backwards with before, and links the previous page', async () => {
    const first = await getJson<TemplatePage>(templatesUrl('?limit=2'), bearer());
    const second = await getJson<TemplatePage>(first.body.paging!.next!, bearer());
    expect(second.body.paging?.previous).toBeDefined();
    const back = await getJson<TemplatePage>(second.body.paging!.previous!, bearer());
    expect(back.body.data.map((t) => t.id)).toEqual(first.body.data.map((t) => t.id));
    const viaBefore = await getJson<TemplatePage>(templatesUrl(`?limit=2&before=${encodeURIComponent(second.body.paging!.cursors.before)}`), bearer());
    expect(viaBefore.body.data.map((t) => t.id)).toEqual(first.body.data.map((t) => t.id));
  });

  it('returns an empty page after the last template', async () => {
    let body: TemplatePage = (await getJson<TemplatePage>(templatesUrl(), bearer())).body;
    while (body.paging?.next) body = (await getJson<TemplatePage>(body.paging.next, bearer())).body;
    const after = await getJson<TemplatePage>(templatesUrl(`?after=${encodeURIComponent(body.paging!.cursors.after)}`), bearer());
    expect(after).toMatchObject({ status: 200, body: { data: [] } });
    expect(after.body.paging).toBeUndefined();
  });

  it.each([['?limit=0'], ['?limit=abc'], ['?after=bogus'], ['?before=bogus']])('rejects %s with Graph error 100', async (query) => {
    const { status, body } = await getJson<GraphErrorBody>(templatesUrl(query), bearer());
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 100, type: 'OAuthException', message: expect.stringMatching(/^\(#100\) /) });
  });

  it('keeps template ids stable across calls, distinct per template and per WABA', async () => {
    const ids = async (waba: string) => (await allTemplates(waba)).map((t) => t.id);
    const first = await ids(WABA);
    expect(await ids(WABA)).toEqual(first);
    expect(new Set(first).size).toBe(CATALOGUE);
    const other = await ids('987654321');
    expect(other.some((id) => first.includes(id))).toBe(false);
  });
});

describe('unknown routes', () => {
  it('answers an unknown path like Graph: 400, code 100, GraphMethodException', async () => {
    const { status, body } = await getJson<GraphErrorBody>(`${simulator.url}/v26.0/${WABA}/nonsense`, bearer());
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      message: expect.stringMatching(new RegExp(`^Unsupported get request\\. Object with ID '${WABA}' does not exist`)),
      fbtrace_id: expect.any(String),
    });
  });

  it('names the method in the message for an unsupported method', async () => {
    // DELETE and POST are template management (test/simulator/template-management.test.ts); PATCH is nothing.
    const { status, body } = await getJson<GraphErrorBody>(templatesUrl(), { method: 'PATCH', ...bearer() });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'GraphMethodException', code: 100 });
    expect(body.error.message).toMatch(/^Unsupported patch request\./);
  });

  it('checks the token first, as Graph does', async () => {
    const { status, body } = await getJson<GraphErrorBody>(`${simulator.url}/v26.0/${WABA}/nonsense`);
    expect(status).toBe(401);
    expect(body.error.code).toBe(190);
  });
});
