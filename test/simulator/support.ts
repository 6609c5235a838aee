import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOKEN = 'sim-token-1';
export const APP_SECRET = 'sim-app-secret';
export const PHONE_NUMBER_ID = '106540352242922';

/** One webhook POST as the receiver got it. */
export interface ReceivedWebhook {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  body: WebhookBody;
  at: number;
}

export interface StatusBody {
  id: string;
  status: string;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  conversation?: { id: string; expiration_timestamp?: string; origin: { type: string } };
  pricing?: { billable: boolean; pricing_model: string; type: string; category: string };
  errors?: { code: number; title: string; message: string; error_data: { details: string } }[];
}

export interface WebhookBody {
  object: string;
  entry: {
    id: string;
    changes: {
      field: string;
      value: {
        messaging_product: string;
        metadata: { display_phone_number: string; phone_number_id: string };
        statuses?: StatusBody[];
        contacts?: { profile: { name: string }; wa_id: string }[];
        messages?: { from: string; id: string; timestamp: string; type: string; text: { body: string } }[];
      };
    }[];
  }[];
}

/** A stand-in for our API's `/webhooks/whatsapp`: records every POST and answers `respond()` (200 by default). */
export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  respond: (webhook: ReceivedWebhook) => number;
  /** Status reports about one message, in arrival order. */
  statusesOf(wamid: string): StatusBody[];
  /** Waits until `predicate` holds or fails after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const webhook = { raw, headers: req.headers, body: JSON.parse(raw.toString('utf8')) as WebhookBody, at: Date.now() };
      received.push(webhook);
      res.writeHead(receiver.respond(webhook)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`,
    received,
    respond: () => 200,
    statusesOf: (wamid) => received.flatMap((w) => w.body.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? []))).filter((s) => s.id === wamid),
    async waitFor(predicate, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error('timed out waiting for webhooks');
        await sleep(5);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const expectedSignature = (raw: Buffer, secret = APP_SECRET): string => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

export interface Reply<T = any> {
  status: number;
  body: T;
}

export async function request<T = any>(url: string, method: string, body?: unknown, token: string | null = TOKEN): Promise<Reply<T>> {
  const response = await fetch(url, {
    method,
    headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** A random recipient number ending in `suffix`, so concurrent tests never share a recipient. */
export const recipient = (suffix = ''): string => `1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`.slice(0, 11 - suffix.length) + suffix;

export const templateMessage = (to: string, name: string, language: string, params: string[], extra: object = {}) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'template',
  template: {
    name,
    language: { code: language },
    ...(params.length > 0 && { components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] }),
  },
  ...extra,
});

export const textMessage = (to: string, body: string, extra: object = {}) => ({
  messaging_product: 'whatsapp',
  to,
  type: 'text',
  text: { body },
  ...extra,
});
