/**
 * Downloads a file from a URL a client gave (a template's `example.header_url`), behind the same
 * guard as webhook URLs (shared/subscribers/url-safety.ts): `https` to public addresses only
 * (local development also allows `http` and loopback), every resolved address checked as it is
 * connected to, no redirect followed, a size cap and a time limit. Never throws.
 */
import http from 'node:http';
import https from 'node:https';
import { checkWebhookUrl, safeLookup, webhookPolicy } from '#shared/subscribers/url-safety';

export type Download = { ok: true; bytes: Uint8Array; contentType: string } | { ok: false; reason: string };

export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
}

const media = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

export async function downloadFromClientUrl(raw: string, limits: DownloadLimits): Promise<Download> {
  const policy = webhookPolicy();
  const checked = await checkWebhookUrl(raw, policy);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const target = checked.url;
  return new Promise<Download>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    const finish = (result: Download) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      request?.destroy();
    };
    const timer = setTimeout(() => finish({ ok: false, reason: `the download took longer than ${limits.timeoutMs} ms` }), limits.timeoutMs);
    const get = target.protocol === 'https:' ? https.get : http.get;
    request = get(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        lookup: safeLookup(policy),
        // A fresh connection: a pooled socket would skip the address check.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300)
          return finish({ ok: false, reason: status >= 300 && status < 400 ? 'redirects are not followed' : `the URL answered ${status}` });
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxBytes) return finish({ ok: false, reason: `the file is larger than ${limits.maxBytes} bytes` });
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) return finish({ ok: false, reason: `the file is larger than ${limits.maxBytes} bytes` });
          chunks.push(chunk);
        });
        response.on('end', () => finish({ ok: true, bytes: new Uint8Array(Buffer.concat(chunks)), contentType: media(response.headers['content-type']) }));
        response.on('error', () => finish({ ok: false, reason: 'the download was interrupted' }));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: error.code === 'EWEBHOOKADDRESS' ? error.message : 'the URL could not be reached' }),
    );
  });
}
