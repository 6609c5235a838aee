import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startApiServer } from '#local/api-server';
import { freePort } from '#local/ports';

/**
 * GET /docs in a real browser: Debian's Chromium (installed by .ci/run), headless, every request
 * outside this machine refused, so the page is shown to work with the deployment alone. The local
 * API server alone serves it: the page, its script and the document are public and read no table.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = join(__dirname, '..', '..', 'test-artifacts', 'api-reference.png');

let server: Server;
let baseUrl: string;
let browser: Browser;
let page: Page;
const offOrigin: string[] = [];
const problems: string[] = [];
/** Redoc's credit logo, hard-wired to Redocly's CDN: the page's Content-Security-Policy refuses it before any request. */
const REFUSED_LOGO = /^console: Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates the following Content Security Policy directive/;

beforeAll(async () => {
  const port = await freePort();
  server = await startApiServer(port, () => true);
  baseUrl = `http://127.0.0.1:${port}`;
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
  await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle0', timeout: 60_000 });
}, 90_000);

afterAll(async () => {
  // The browser first: it drops its kept-alive connections, which would hold the server open.
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the API reference in Chromium', () => {
  it('renders, loading nothing from outside this machine and reporting no error', async () => {
    await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 30_000 });
    expect(offOrigin).toEqual([]);
    expect(problems.filter((problem) => !REFUSED_LOGO.test(problem))).toEqual([]);
  });

  it('lists every operation of the document and every webhook', async () => {
    const document = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      webhooks: Record<string, { post: { operationId: string } }>;
    };
    const operationIds = [
      ...Object.values(document.paths).flatMap((methods) => Object.values(methods)),
      ...Object.values(document.webhooks).map((webhook) => webhook.post),
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
