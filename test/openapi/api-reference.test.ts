import { useTestApi } from '../support/api';

/** The reference page and its script, as a browser fetches them (the browser itself: test/browser). */

const api = useTestApi();

describe('GET /docs', () => {
  it('is an HTML page, open to anyone, that loads only from this origin', async () => {
    const reply = await api.call('GET', '/docs');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
    const sources = [...(reply.body as string).matchAll(/(?:src|spec-url)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(['api/v1/openapi.json', expect.stringMatching(/^docs\/redoc\.standalone\.js\?v=2\.\d+\.\d+$/)]);
  });

  it("serves the renderer's script itself, cacheable", async () => {
    const reply = await api.call('GET', '/docs/redoc.standalone.js?v=any');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(reply.headers.get('cache-control')).toContain('immutable');
    expect(reply.body).toMatch(/^\/\*! For license information please see redoc\.standalone\.js\.LICENSE\.txt \*\//);
  });
});
