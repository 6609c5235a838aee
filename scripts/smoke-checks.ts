/**
 * The checks of `npm run smoke` (docs/deploy.md, "Check it"): a deployment seen as its user sees
 * it, each check one line. Nothing is left behind: the key and the webhook subscription it makes
 * are removed again; a message is sent only when a recipient is given.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface SmokeOptions {
  /** The API's base URL (the `ApiUrl` output, or http://localhost:3000). */
  url: string;
  key: string;
  /** A customer's number: a real send of `template` to it. */
  to?: string;
  template?: string;
  language?: string;
  /** An endpoint of yours that answers 2xx; without it, a local receiver (local stacks) or only an attempted delivery (deployments). */
  webhookUrl?: string;
  /** How long a sent message may take to leave `queued`. */
  sendTimeoutMs?: number;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

type Json = any;

class CheckFailed extends Error {}

/** One request; a refused connection or a non-JSON error answer becomes one clear line. */
async function request(
  options: SmokeOptions,
  method: string,
  path: string,
  body?: unknown,
  withKey = true,
): Promise<{ status: number; body: Json; text: string }> {
  let response: Response;
  try {
    response = await fetch(`${options.url.replace(/\/$/, '')}${path}`, {
      method,
      headers: { ...(withKey && { Authorization: `Bearer ${options.key}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CheckFailed(`cannot reach ${options.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (response.status === 401) throw new CheckFailed('the API key was refused (401 unauthorized): check --key');
  return { status: response.status, body: parsed, text };
}

const expectStatus = (reply: { status: number; body: Json; text: string }, status: number, what: string) => {
  if (reply.status !== status) throw new CheckFailed(`${what} answered ${reply.status}: ${reply.body?.error?.message ?? reply.text.slice(0, 200)}`);
};

/** A receiver on this machine that verifies each delivery's signature, for a stack on this machine. */
async function localReceiver(): Promise<{ url: string; received: (secret: string) => boolean; stop: () => Promise<void> }> {
  const deliveries: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/smoke`,
    received: (secret) =>
      deliveries.some((d) => {
        try {
          new Webhook(secret).verify(d.body, d.headers);
          return true;
        } catch {
          return false;
        }
      }),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const isLocal = (url: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

const checks: { name: string; run: (options: SmokeOptions) => Promise<string> }[] = [
  {
    name: 'health',
    run: async (options) => {
      const reply = await request(options, 'GET', '/health', undefined, false);
      expectStatus(reply, 200, 'GET /health');
      return 'GET /health 200';
    },
  },
  {
    name: 'API reference',
    run: async (options) => {
      const page = await request(options, 'GET', '/docs', undefined, false);
      expectStatus(page, 200, 'GET /docs');
      const document = await request(options, 'GET', '/api/v1/openapi.json', undefined, false);
      expectStatus(document, 200, 'GET /api/v1/openapi.json');
      if (!document.body?.openapi) throw new CheckFailed('/api/v1/openapi.json is not an OpenAPI document');
      return `/docs and OpenAPI ${document.body.openapi}, ${Object.keys(document.body.paths ?? {}).length} paths`;
    },
  },
  {
    name: 'keys',
    run: async (options) => {
      const created = await request(options, 'POST', '/api/v1/keys', { name: 'smoke test', description: 'made and revoked by npm run smoke' });
      expectStatus(created, 201, 'POST /api/v1/keys');
      const id = created.body.data.id as string;
      const listed = await request(options, 'GET', '/api/v1/keys');
      expectStatus(listed, 200, 'GET /api/v1/keys');
      if (!listed.body.data.some((k: { id: string }) => k.id === id)) throw new CheckFailed('the key just made is not listed');
      expectStatus(await request(options, 'DELETE', `/api/v1/keys?id=${id}`), 200, 'DELETE /api/v1/keys');
      return `a key made, listed and revoked (${listed.body.data.length} active before)`;
    },
  },
  {
    name: 'templates',
    run: async (options) => {
      const reply = await request(options, 'GET', '/api/v1/templates');
      expectStatus(reply, 200, 'GET /api/v1/templates');
      return `${reply.body.data.length} approved templates`;
    },
  },
  {
    name: 'numbers',
    run: async (options) => {
      const reply = await request(options, 'GET', '/api/v1/numbers');
      expectStatus(reply, 200, 'GET /api/v1/numbers');
      const numbers = reply.body.data as { id: string; status: string; is_default: boolean }[];
      if (!numbers.length) throw new CheckFailed('the workspace has no number: connect one or onboard it (docs/deploy.md)');
      return numbers.map((n) => `${n.id} ${n.status}${n.is_default ? ' (default)' : ''}`).join(', ');
    },
  },
  {
    name: 'webhook',
    run: async (options) => {
      const receiver = !options.webhookUrl && isLocal(options.url) ? await localReceiver() : undefined;
      // A deployment without an endpoint of yours posts to its own /health: the delivery is attempted and answered, not accepted.
      const url = options.webhookUrl ?? receiver?.url ?? `${options.url.replace(/\/$/, '')}/health`;
      const created = await request(options, 'POST', '/api/v1/webhooks', { url, events: ['message.sent'] });
      try {
        expectStatus(created, 201, 'POST /api/v1/webhooks');
        const { id, signing_secret: secret } = created.body.data as { id: string; signing_secret: string };
        const ping = await request(options, 'POST', `/api/v1/webhooks/${id}/test`);
        expectStatus(ping, 200, `POST /api/v1/webhooks/${id}/test`);
        const { success, status_code } = ping.body.data as { success: boolean; status_code: number | null };
        if (options.webhookUrl || receiver) {
          if (!success) throw new CheckFailed(`the test delivery to ${url} failed (${status_code ?? 'no answer'})`);
          if (receiver && !receiver.received(secret)) throw new CheckFailed('the test delivery arrived without a valid signature');
          return `test delivery to ${url}: ${status_code}${receiver ? ', signature verified' : ''}`;
        }
        if (status_code === null) throw new CheckFailed(`the test delivery to ${url} got no answer`);
        return `test delivery attempted (${url} answered ${status_code}); --webhook-url <your endpoint> checks one end to end`;
      } finally {
        if (created.status === 201) await request(options, 'DELETE', `/api/v1/webhooks/${created.body.data.id}`);
        await receiver?.stop();
      }
    },
  },
  {
    name: 'send',
    run: async (options) => {
      if (!options.to) return 'skipped (no --to)';
      const sent = await request(options, 'POST', '/api/v1/messages', {
        to: options.to,
        template: options.template ?? 'hello_world',
        language: options.language ?? 'en_US',
      });
      expectStatus(sent, 202, 'POST /api/v1/messages');
      const id = sent.body.data.message_id as string;
      const until = Date.now() + (options.sendTimeoutMs ?? 60_000);
      for (;;) {
        const message = await request(options, 'GET', `/api/v1/messages/${id}`);
        expectStatus(message, 200, `GET /api/v1/messages/${id}`);
        const { status, error } = message.body.data as { status: string; error: { code: string; title: string } | null };
        if (status === 'failed') throw new CheckFailed(`message ${id} failed: ${error?.code} ${error?.title}`);
        if (status !== 'queued') return `message ${id} ${status}`;
        if (Date.now() > until) throw new CheckFailed(`message ${id} still queued after ${(options.sendTimeoutMs ?? 60_000) / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  },
];

/** Runs every check in order; once the API cannot be reached, the rest are not tried. */
export async function runSmoke(options: SmokeOptions): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      results.push({ name: check.name, ok: true, detail: await check.run(options) });
    } catch (error) {
      if (!(error instanceof CheckFailed)) throw error;
      results.push({ name: check.name, ok: false, detail: error.message });
      if (error.message.startsWith('cannot reach') || error.message.startsWith('the API key was refused')) break;
    }
  }
  return results;
}
