import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { useTestApi } from '../support/api';

/**
 * GET /docs in a real browser: Debian's Chromium (installed by .ci/run), headless, every request
 * outside this machine refused, so the page is shown to work with the deployment alone.
 */

// Declared before the API's hooks, so the browser closes (and drops its kept-alive connections) before the server does.
afterAll(() => browser?.close());
const api = useTestApi();
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(__dirname, '..', '..', 'test-artifacts', 'api-reference.png');

let browser: Browser;
let page: Page;
const offOrigin: string[] = [];
const problems: string[] = [];
/** Redoc's credit logo, hard-wired to Redocly's CDN: the page's Content-Security-Policy refuses it before any request. */
const REFUSED_LOGO = /^console: Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates the following Content Security Policy directive/;

beforeAll(async () => {
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (/^(data|blob):/.test(request.url()) || new URL(request.url()).hostname === '127.0.0.1') return void request.continue();
    offOrigin.push(request.url());
    void request.abort();
  });
  page.on('pageerror', (error) => problems.push(`page error: ${(error as Error).message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  await page.goto(`${api.baseUrl}/docs`, { waitUntil: 'networkidle0', timeout: 60_000 });
}, 90_000);

describe('the API reference in Chromium', () => {
  it('renders, loading nothing from outside this machine and reporting no error', async () => {
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 30_000 });
    expect(offOrigin).toEqual([]);
    expect(problems.filter((problem) => !REFUSED_LOGO.test(problem))).toEqual([]);
  });

  it('lists every operation of the document and every webhook', async () => {
    const document = (await api.call('GET', '/api/v1/openapi.json')).body;
    const operationIds = [
      ...Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) => Object.values(methods)),
      ...Object.values(document.webhooks as Record<string, { post: { operationId: string } }>).map((webhook) => webhook.post),
    ].map((operation) => operation.operationId);
    const rendered = await page.$$eval('[data-section-id^="operation/"]', (sections) => sections.map((section) => section.getAttribute('data-section-id')));
    expect(new Set(rendered)).toEqual(new Set(operationIds.map((id) => `operation/${id}`)));
  });

  it("shows a readable example request: sending a message's body, as documented", async () => {
    const sample = await page.$eval('[data-section-id="operation/SendMessage"]', (section) => section.textContent ?? '');
    expect(sample).toContain('Request samples');
    expect(sample).toMatch(/"to":\s*"\+1 415 555 0101"/);
    expect(sample).toMatch(/"template":\s*"order_update"/);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.$eval('[data-section-id="operation/SendMessage"]', (section) => section.scrollIntoView());
    await page.screenshot({ path: SCREENSHOT });
  });
});
