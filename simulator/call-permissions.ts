import { callingErrors } from '#simulator/calling-errors';

export type PermissionStatus = 'no_permission' | 'temporary' | 'permanent';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The limits per business number and customer (docs/platform-calling.md §0, Meta "Obtain user call
 * permissions"): 1 permission request in 24 hours and 2 in 7 days, reset by any connected call; a
 * temporary permission lasts 7 days; 100 connected business-initiated calls in 24 hours (the older
 * docs said 5: a setting); 4 unanswered business-initiated calls in a row revoke the permission; 100
 * permission look-ups per second per number.
 */
export interface CallLimits {
  requestsPerDay: number;
  requestsPerWeek: number;
  temporaryPermissionMs: number;
  connectedBusinessCallsPerDay: number;
  unansweredBeforeRevoke: number;
  lookupsPerSecond: number;
}

export const DEFAULT_CALL_LIMITS: CallLimits = {
  requestsPerDay: 1,
  requestsPerWeek: 2,
  temporaryPermissionMs: 7 * DAY_MS,
  connectedBusinessCallsPerDay: 100,
  unansweredBeforeRevoke: 4,
  lookupsPerSecond: 100,
};

interface Pair {
  status: PermissionStatus;
  /** Epoch ms a temporary permission expires. */
  expiresAt?: number;
  /** When permission requests were accepted, epoch ms (cleared by a connected call). */
  requests: number[];
  /** When business-initiated calls connected, epoch ms. */
  connectedBusinessCalls: number[];
  /** Business-initiated calls unanswered or rejected in a row. */
  unanswered: number;
}

/** A limit as `GET /call_permissions` shows it. */
interface LimitView {
  time_period: string;
  max_allowed: number;
  current_usage: number;
  limit_expiration_time?: number;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** Each (business number, customer) pair's call permission and the usage the platform limits. */
export class CallPermissions {
  private pairs = new Map<string, Pair>();
  private lookups = new Map<string, number[]>();

  constructor(readonly limits: CallLimits = { ...DEFAULT_CALL_LIMITS }) {}

  private pair(phoneNumberId: string, customer: string, now: number): Pair {
    const key = `${phoneNumberId}|${customer}`;
    let pair = this.pairs.get(key);
    if (!pair) {
      pair = { status: 'no_permission', requests: [], connectedBusinessCalls: [], unanswered: 0 };
      this.pairs.set(key, pair);
    }
    // "No webhook is sent when a temporary permission expires": it just lapses.
    if (pair.status === 'temporary' && pair.expiresAt !== undefined && pair.expiresAt <= now) {
      pair.status = 'no_permission';
      pair.expiresAt = undefined;
    }
    pair.requests = pair.requests.filter((at) => now - at < 7 * DAY_MS);
    pair.connectedBusinessCalls = pair.connectedBusinessCalls.filter((at) => now - at < DAY_MS);
    return pair;
  }

  status(phoneNumberId: string, customer: string, now = Date.now()): { status: PermissionStatus; expiresAt?: number } {
    const { status, expiresAt } = this.pair(phoneNumberId, customer, now);
    return { status, ...(expiresAt !== undefined && { expiresAt }) };
  }

  /** A permission request is being sent: refused with 138017 (permanent permission) or 138009 (limits), else counted. */
  request(phoneNumberId: string, customer: string, now = Date.now()): void {
    const pair = this.pair(phoneNumberId, customer, now);
    if (pair.status === 'permanent') throw callingErrors.permanentPermissionExists();
    const lastDay = pair.requests.filter((at) => now - at < DAY_MS).length;
    if (lastDay >= this.limits.requestsPerDay || pair.requests.length >= this.limits.requestsPerWeek) throw callingErrors.permissionRequestLimit();
    pair.requests.push(now);
  }

  /** The customer answers: accept (temporary for 7 days, or permanent) or reject. Returns the expiry of a temporary permission. */
  reply(phoneNumberId: string, customer: string, accept: boolean, permanent: boolean, now = Date.now()): number | undefined {
    const pair = this.pair(phoneNumberId, customer, now);
    pair.unanswered = 0;
    if (!accept) {
      Object.assign(pair, { status: 'no_permission', expiresAt: undefined });
      return undefined;
    }
    pair.status = permanent ? 'permanent' : 'temporary';
    pair.expiresAt = permanent ? undefined : now + this.limits.temporaryPermissionMs;
    return pair.expiresAt;
  }

  /** A business-initiated call may start: 138006 without a permission, 138012 past the connected calls of 24 hours. */
  checkCall(phoneNumberId: string, customer: string, now = Date.now()): void {
    const pair = this.pair(phoneNumberId, customer, now);
    if (pair.status === 'no_permission') throw callingErrors.noPermission();
    if (pair.connectedBusinessCalls.length >= this.limits.connectedBusinessCallsPerDay)
      throw callingErrors.businessCallsLimit(seconds(pair.connectedBusinessCalls[0] + DAY_MS));
  }

  /** A call connected: the permission request limits reset; a business-initiated one counts against its limit. */
  connected(phoneNumberId: string, customer: string, businessInitiated: boolean, now = Date.now()): void {
    const pair = this.pair(phoneNumberId, customer, now);
    pair.requests = [];
    pair.unanswered = 0;
    if (businessInitiated) pair.connectedBusinessCalls.push(now);
  }

  /** A business-initiated call went unanswered or was rejected; true when that revoked the permission. */
  unanswered(phoneNumberId: string, customer: string, now = Date.now()): boolean {
    const pair = this.pair(phoneNumberId, customer, now);
    pair.unanswered += 1;
    if (pair.unanswered < this.limits.unansweredBeforeRevoke || pair.status === 'no_permission') return false;
    Object.assign(pair, { status: 'no_permission', expiresAt: undefined, unanswered: 0 });
    return true;
  }

  /** Counts a permission look-up of this number: false past 100 in one second (error 613). */
  lookup(phoneNumberId: string, now = Date.now()): boolean {
    const recent = (this.lookups.get(phoneNumberId) ?? []).filter((at) => now - at < 1000);
    recent.push(now);
    this.lookups.set(phoneNumberId, recent);
    return recent.length <= this.limits.lookupsPerSecond;
  }

  /** `GET /{phone_number_id}/call_permissions`'s answer (Meta "Obtain user call permissions", "Get current call permission state"). */
  view(phoneNumberId: string, customer: string, now = Date.now()): Record<string, unknown> {
    const pair = this.pair(phoneNumberId, customer, now);
    const limit = (period: string, max: number, windowMs: number, usage: number[]): LimitView => ({
      time_period: period,
      max_allowed: max,
      current_usage: usage.length,
      ...(usage.length >= max && usage.length > 0 && { limit_expiration_time: seconds(usage[usage.length - max] + windowMs) }),
    });
    const requestLimits = [
      limit(
        'PT24H',
        this.limits.requestsPerDay,
        DAY_MS,
        pair.requests.filter((at) => now - at < DAY_MS),
      ),
      limit('P7D', this.limits.requestsPerWeek, 7 * DAY_MS, pair.requests),
    ];
    const callLimits = [limit('PT24H', this.limits.connectedBusinessCallsPerDay, DAY_MS, pair.connectedBusinessCalls)];
    const underAll = (limits: LimitView[]) => limits.every((l) => l.current_usage < l.max_allowed);
    return {
      messaging_product: 'whatsapp',
      permission: { status: pair.status, ...(pair.expiresAt !== undefined && { expiration_time: seconds(pair.expiresAt) }) },
      actions: [
        { action_name: 'send_call_permission_request', can_perform_action: pair.status !== 'permanent' && underAll(requestLimits), limits: requestLimits },
        { action_name: 'start_call', can_perform_action: pair.status !== 'no_permission' && underAll(callLimits), limits: callLimits },
      ],
    };
  }
}
