import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireAccessToken } from '#local/simulator/auth';
import { GraphError, graphErrors } from '#local/simulator/graph-error';
import { ok, sendGraphError, sendJson, type RouteContext } from '#local/simulator/http';
import { matchRoute, objectIdOf, VERSION, type Route } from '#local/simulator/router';
import { listMessageTemplates } from '#local/simulator/routes/message-templates';

export interface SimulatorOptions {
  port: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Access tokens the simulator accepts (as `Authorization: Bearer` or `?access_token=`). */
  accessTokens: string[];
}

export interface Simulator {
  /** Base URL to use as the Graph API base, e.g. `http://127.0.0.1:3001`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const routes: Route[] = [
  { method: 'GET', path: /^\/health\/?$/, auth: false, handle: () => ok({ ok: true }) },
  {
    method: 'GET',
    path: new RegExp(String.raw`^/(?<version>${VERSION})/(?<wabaId>[^/]+)/message_templates/?$`),
    auth: true,
    handle: listMessageTemplates,
  },
];

/** Starts the WhatsApp Cloud API (Graph API) simulator; `port: 0` picks a free port. */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const tokens = new Set(options.accessTokens);
  const server = createServer((req, res) => {
    handle(req, res, tokens).catch((error: unknown) => {
      console.error('[simulator]', error);
      if (!res.headersSent) sendGraphError(res, graphErrors.unknown());
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, tokens: ReadonlySet<string>): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const matched = matchRoute(routes, method, url.pathname);
  const ctx: RouteContext = { method, url, params: matched?.params ?? {}, headers: req.headers };
  try {
    // Graph checks the token before it looks at the path, so unknown routes need a valid token too.
    if (!matched || matched.route.auth) requireAccessToken(ctx, tokens);
    if (!matched) throw graphErrors.unsupportedRequest(method, objectIdOf(url.pathname));
    sendJson(res, await matched.route.handle(ctx));
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    sendGraphError(res, error);
  }
}
