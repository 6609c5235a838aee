import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireAccessToken } from '#simulator/auth';
import { MessagePricing } from '#simulator/pricing';
import { Faults } from '#simulator/faults';
import { GraphError, graphErrors } from '#simulator/graph-error';
import { ok, readJsonBody, readRawBody, sendGraphError, sendJson, type RouteContext } from '#simulator/http';
import { matchRoute, objectIdOf, VERSION, type Route } from '#simulator/router';
import { listMessageTemplates } from '#simulator/routes/message-templates';
import { sendMessage } from '#simulator/routes/send-message';
import { getFaults, resetFaults, updateFaults } from '#simulator/routes/simulate-faults';
import { simulateInbound } from '#simulator/routes/simulate-inbound';
import { clearSentMessages, listReadReceipts, listSentMessages } from '#simulator/routes/simulate-messages';
import { simulateFlowReply } from '#simulator/routes/simulate-flow-reply';
import { simulateTemplateCategory } from '#simulator/routes/simulate-template-category';
import { ReadReceipts } from '#simulator/read-receipts';
import { SentMessages } from '#simulator/sent-messages';
import { MediaStore } from '#simulator/media';
import { downloadMedia, getMediaObject, MEDIA_DOWNLOAD_ROUTE, registerMedia } from '#simulator/routes/media';
import { simulateTemplateStatus } from '#simulator/routes/simulate-template-status';
import { registerNumber } from '#simulator/routes/simulate-numbers';
import { simulateMessagingLimit } from '#simulator/routes/simulate-messaging-limit';
import {
  getPhoneNumber,
  listAccountNumbers,
  listSubscribedApps,
  listSubscriptionRequests,
  simulateNumberQuality,
  subscribeApp,
} from '#simulator/routes/phone-numbers';
import { exchangeCode, registerPhoneNumber, simulateEmbeddedSignup } from '#simulator/routes/embedded-signup';
import { EmbeddedSignups } from '#simulator/embedded-signup';
import { simulatedNumber, type SimulatedNumber } from '#simulator/numbers';
import type { SimulatorState } from '#simulator/state';
import { WebhookSender } from '#simulator/platform-webhooks';
import { CreatedTemplates } from '#simulator/created-templates';
import { UploadSessions } from '#simulator/uploads';
import { MANUAL_REVIEW, type TemplateReviewSettings } from '#simulator/template-review-settings';
import { createTemplate, deleteTemplate, editTemplate } from '#simulator/routes/manage-templates';
import { openUploadSession, receiveUpload, uploadStatus } from '#simulator/routes/uploads';
import { updateTemplateReview } from '#simulator/routes/simulate-template-review';
import { Groups, looksLikeGroupId } from '#simulator/groups';
import { createGroup, listGroups } from '#simulator/routes/groups';
import { deleteGroup, getGroup, getInviteLink, resetInviteLink, updateGroup } from '#simulator/routes/group';
import { approveJoinRequests, listJoinRequests, rejectJoinRequests } from '#simulator/routes/group-join-requests';
import { removeParticipants } from '#simulator/routes/group-participants';
import { holdGroupCreation, listSimulatedGroups, simulateGroupJoin, simulateGroupLeave, simulateGroupSuspend } from '#simulator/routes/simulate-groups';
import { simulateGroupMessage } from '#simulator/routes/simulate-group-message';
import { callingRoutes, coexistenceRoutes } from '#simulator/calling-routes';
import { Calls } from '#simulator/calls';
import { CallPermissions } from '#simulator/call-permissions';
import { CallSettings } from '#simulator/call-settings';
import { Coexistence } from '#simulator/coexistence';

export interface SimulatorOptions {
  port: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Access tokens the simulator accepts (as `Authorization: Bearer` or `?access_token=`). */
  accessTokens: string[];
  /** Where status and inbound webhooks are POSTed (our API's /webhooks/whatsapp). Can be set later with setWebhookUrl. */
  webhookUrl?: string;
  /** Signs webhooks: X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the exact raw body bytes with this secret>. */
  appSecret: string;
  /** Delay between the successive status webhooks of one message (default 300 ms). */
  statusIntervalMs?: number;
  /** Waits before the retries of a failed webhook delivery, after which it is dropped (default 250, 1000, 3000 ms). */
  webhookRetryDelaysMs?: number[];
  /** How templates created through the API are reviewed (default: only on request, `POST /_simulate/template-status`). */
  templateReview?: TemplateReviewSettings;
}

export interface Simulator {
  /** Base URL to use as the Graph API base, e.g. `http://127.0.0.1:3001`. */
  url: string;
  port: number;
  /** Closes the server, cancels every pending webhook (scheduled statuses, retries) and aborts those in flight. */
  stop(): Promise<void>;
  setWebhookUrl(url: string): void;
  /** Which business account a phone number id belongs to (webhooks name it in `entry[].id`); also `POST /_simulate/numbers`. */
  registerNumber(phoneNumberId: string, wabaId: string, details?: Partial<Omit<SimulatedNumber, 'wabaId'>>): void;
}

export const DEFAULT_STATUS_INTERVAL_MS = 300;

const graphPath = (rest: string) => new RegExp(String.raw`^/(?<version>${VERSION})/${rest}/?$`);

function routesFor(state: SimulatorState): Route[] {
  return [
    { method: 'GET', path: /^\/health\/?$/, auth: false, handle: () => ok({ ok: true }) },
    { method: 'GET', path: graphPath('(?<wabaId>[^/]+)/message_templates'), auth: true, handle: listMessageTemplates(state) },
    { method: 'POST', path: graphPath('(?<wabaId>[^/]+)/message_templates'), auth: true, handle: createTemplate(state) },
    { method: 'DELETE', path: graphPath('(?<wabaId>[^/]+)/message_templates'), auth: true, handle: deleteTemplate(state) },
    { method: 'POST', path: graphPath('(?<phoneNumberId>[^/]+)/messages'), auth: true, handle: sendMessage(state) },
    // The Calling API and coexistence (docs/platform-calling.md, docs/platform-coexistence.md), with their controls.
    ...callingRoutes(state),
    ...coexistenceRoutes(state),
    { method: 'POST', path: graphPath('(?<appId>[^/]+)/uploads'), auth: true, handle: openUploadSession(state) },
    { method: 'POST', path: graphPath('(?<sessionId>upload:[^/]+)'), auth: true, handle: receiveUpload(state) },
    { method: 'GET', path: graphPath('(?<sessionId>upload:[^/]+)'), auth: true, handle: uploadStatus(state) },
    { method: 'POST', path: graphPath('(?<templateId>\\d+)'), auth: true, handle: editTemplate(state) },
    { method: 'GET', path: graphPath('oauth/access_token'), auth: false, handle: exchangeCode(state) },
    { method: 'POST', path: graphPath('(?<phoneNumberId>\\d+)/register'), auth: true, handle: registerPhoneNumber(state) },
    { method: 'POST', path: graphPath('(?<wabaId>[^/]+)/subscribed_apps'), auth: true, handle: subscribeApp(state) },
    { method: 'GET', path: graphPath('(?<wabaId>[^/]+)/subscribed_apps'), auth: true, handle: listSubscribedApps(state) },
    { method: 'GET', path: graphPath('(?<wabaId>[^/]+)/phone_numbers'), auth: true, handle: listAccountNumbers(state) },
    // The Groups API (docs/platform-groups.md): a number's groups, then one group's edges.
    { method: 'POST', path: graphPath('(?<phoneNumberId>[^/]+)/groups'), auth: true, handle: createGroup(state) },
    { method: 'GET', path: graphPath('(?<phoneNumberId>[^/]+)/groups'), auth: true, handle: listGroups(state) },
    { method: 'GET', path: graphPath('(?<groupId>[^/]+)/invite_link'), auth: true, handle: getInviteLink(state) },
    { method: 'POST', path: graphPath('(?<groupId>[^/]+)/invite_link'), auth: true, handle: resetInviteLink(state) },
    { method: 'GET', path: graphPath('(?<groupId>[^/]+)/join_requests'), auth: true, handle: listJoinRequests(state) },
    { method: 'POST', path: graphPath('(?<groupId>[^/]+)/join_requests'), auth: true, handle: approveJoinRequests(state) },
    { method: 'DELETE', path: graphPath('(?<groupId>[^/]+)/join_requests'), auth: true, handle: rejectJoinRequests(state) },
    { method: 'DELETE', path: graphPath('(?<groupId>[^/]+)/participants'), auth: true, handle: removeParticipants(state) },
    { method: 'POST', path: graphPath('(?<groupId>[^/]+)'), auth: true, handle: updateGroup(state) },
    { method: 'DELETE', path: graphPath('(?<groupId>[^/]+)'), auth: true, handle: deleteGroup(state) },
    // One path for every object: a registered number, a group (any id shaped like one), else a media object.
    {
      method: 'GET',
      path: graphPath('(?<objectId>[^/]+)'),
      auth: true,
      handle: (ctx) => {
        const id = ctx.params.objectId;
        if (state.numbers.has(id)) return getPhoneNumber(state)(ctx);
        if (looksLikeGroupId(id)) return getGroup(state)({ ...ctx, params: { groupId: id } });
        return getMediaObject(state)({ ...ctx, params: { mediaId: id } });
      },
    },
    { method: 'GET', path: MEDIA_DOWNLOAD_ROUTE, auth: true, handle: downloadMedia(state) },
    { method: 'POST', path: /^\/_simulate\/media\/?$/, auth: false, handle: registerMedia(state) },
    { method: 'POST', path: /^\/_simulate\/numbers\/?$/, auth: false, handle: registerNumber(state) },
    { method: 'GET', path: /^\/_simulate\/subscriptions\/?$/, auth: false, handle: listSubscriptionRequests(state) },
    { method: 'POST', path: /^\/_simulate\/embedded-signup\/?$/, auth: false, handle: simulateEmbeddedSignup(state) },
    { method: 'POST', path: /^\/_simulate\/template-status\/?$/, auth: false, handle: simulateTemplateStatus(state) },
    { method: 'POST', path: /^\/_simulate\/number-quality\/?$/, auth: false, handle: simulateNumberQuality(state) },
    { method: 'POST', path: /^\/_simulate\/messaging-limit\/?$/, auth: false, handle: simulateMessagingLimit(state) },
    { method: 'POST', path: /^\/_simulate\/template-review\/?$/, auth: false, handle: updateTemplateReview(state) },
    { method: 'POST', path: /^\/_simulate\/template-category\/?$/, auth: false, handle: simulateTemplateCategory(state) },
    { method: 'POST', path: /^\/_simulate\/inbound\/?$/, auth: false, handle: simulateInbound(state) },
    { method: 'POST', path: /^\/_simulate\/flow-reply\/?$/, auth: false, handle: simulateFlowReply(state) },
    { method: 'GET', path: /^\/_simulate\/read-receipts\/?$/, auth: false, handle: listReadReceipts(state) },
    { method: 'GET', path: /^\/_simulate\/messages\/?$/, auth: false, handle: listSentMessages(state) },
    { method: 'DELETE', path: /^\/_simulate\/messages\/?$/, auth: false, handle: clearSentMessages(state) },
    { method: 'POST', path: /^\/_simulate\/groups\/hold-creation\/?$/, auth: false, handle: holdGroupCreation(state) },
    { method: 'GET', path: /^\/_simulate\/groups\/?$/, auth: false, handle: listSimulatedGroups(state) },
    { method: 'POST', path: /^\/_simulate\/groups\/(?<groupId>[^/]+)\/join\/?$/, auth: false, handle: simulateGroupJoin(state) },
    { method: 'POST', path: /^\/_simulate\/groups\/(?<groupId>[^/]+)\/leave\/?$/, auth: false, handle: simulateGroupLeave(state) },
    { method: 'POST', path: /^\/_simulate\/groups\/(?<groupId>[^/]+)\/messages\/?$/, auth: false, handle: simulateGroupMessage(state) },
    { method: 'POST', path: /^\/_simulate\/groups\/(?<groupId>[^/]+)\/suspend\/?$/, auth: false, handle: simulateGroupSuspend(state) },
    { method: 'GET', path: /^\/_simulate\/faults\/?$/, auth: false, handle: getFaults(state) },
    { method: 'POST', path: /^\/_simulate\/faults\/?$/, auth: false, handle: updateFaults(state) },
    { method: 'DELETE', path: /^\/_simulate\/faults\/?$/, auth: false, handle: resetFaults(state) },
  ];
}

/** Starts the WhatsApp Cloud API (Graph API) simulator; `port: 0` picks a free port. */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  if (typeof options.appSecret !== 'string' || !options.appSecret) {
    console.warn('[simulator] no appSecret given: webhooks are signed with an empty secret and will fail verification');
  }
  const state: SimulatorState = {
    faults: new Faults(options.statusIntervalMs ?? DEFAULT_STATUS_INTERVAL_MS),
    sent: new SentMessages(),
    reads: new ReadReceipts(),
    templateCategories: new Map(),
    webhooks: new WebhookSender({ appSecret: options.appSecret ?? '', retryDelaysMs: options.webhookRetryDelaysMs }),
    media: new MediaStore(),
    templateStatuses: new Map(),
    numbers: new Map(),
    subscribedAccounts: new Set(),
    subscriptionRequests: new Map(),
    created: new CreatedTemplates(),
    uploads: new UploadSessions(),
    templateReview: options.templateReview ?? MANUAL_REVIEW,
    pricing: new MessagePricing(),
    accessTokens: new Set(options.accessTokens),
    appSecret: options.appSecret ?? '',
    signups: new EmbeddedSignups(),
    groups: new Groups(),
    calls: new Calls(),
    callPermissions: new CallPermissions(),
    callSettings: new CallSettings(),
    coexistence: new Coexistence(),
  };
  if (options.webhookUrl) state.webhooks.setUrl(options.webhookUrl);
  const routes = routesFor(state);

  const server = createServer((req, res) => {
    handle(req, res, routes, state.accessTokens).catch((error: unknown) => {
      console.error('[simulator]', error);
      if (!res.headersSent) sendGraphError(res, graphErrors.unknown());
      else res.destroy();
    });
  });
  // Longer than fetch's own idle time (4 s): the client closes an idle connection first, so a request is never written to a socket the server is closing (a reset the sender must treat as ambiguous).
  server.keepAliveTimeout = 60_000;
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
    setWebhookUrl: (url) => state.webhooks.setUrl(url),
    registerNumber: (phoneNumberId, wabaId, details) => state.numbers.set(phoneNumberId, simulatedNumber(phoneNumberId, wabaId, details)),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        state.webhooks.stop();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: readonly Route[], tokens: ReadonlySet<string>): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const matched = matchRoute(routes, method, url.pathname);
  let body: Promise<unknown> | undefined;
  const ctx: RouteContext = {
    method,
    url,
    params: matched?.params ?? {},
    headers: req.headers,
    readJson: () => (body ??= readJsonBody(req)),
    readBytes: (maxBytes) => readRawBody(req, maxBytes),
  };
  try {
    if (!matched && url.pathname.startsWith('/_simulate/')) {
      throw new GraphError(404, 100, 'SimulatorException', `No simulator endpoint ${method} ${url.pathname}`);
    }
    // Graph checks the token before it looks at the path, so unknown routes need a valid token too.
    if (!matched || matched.route.auth) requireAccessToken(ctx, tokens);
    if (!matched) throw graphErrors.unsupportedRequest(method, objectIdOf(url.pathname));
    sendJson(res, await matched.route.handle(ctx));
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    sendGraphError(res, error);
  }
}
