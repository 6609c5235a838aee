import { graphErrors } from '#simulator/graph-error';

/** Fault injection settings, as `GET /_simulate/faults` shows them and `POST /_simulate/faults` changes them. */
export interface FaultSettings {
  /** Share (0..1) of send requests answered HTTP 429, Graph code 130429 (nothing recorded, no webhooks). */
  rate_limit_share: number;
  /** Share (0..1) of send requests answered HTTP 500, Graph code 131000. */
  server_error_share: number;
  /** Share (0..1) of send requests accepted, recorded and reported like any other, whose answer never comes (the client gives up). */
  timeout_share: number;
  /** Share (0..1) of send requests answered HTTP 400, Graph code 131056 (the pair rate limit), at random. */
  pair_limit_share: number;
  /** The pair rate limit as the platform applies it: a send to a recipient less than this many ms after the last one accepted for it answers 131056; 0 = off. */
  pair_limit_ms: number;
  /** Share (0..1) of template sends answered `message_status: held_for_quality_assessment` (reported as usual afterwards). */
  held_share: number;
  /** An account-level error code (190, 131031, 133010, …) every send answers while set; 0 = off. */
  account_error_code: number;
  /** Every status webhook is POSTed twice (identical bytes). */
  duplicate_statuses: boolean;
  /** A message's status webhooks are POSTed in shuffled order (timestamps keep the logical order). */
  reorder_statuses: boolean;
  /** The next N send requests answer 429 / 130429, deterministically. Counts down. */
  fail_next: number;
  /** Delay between successive status webhooks of one message; the simulator's `statusIntervalMs` until changed. */
  status_interval_ms: number;
  /** Suppress status webhooks entirely (benchmarks). Inbound simulation still posts. */
  no_webhooks: boolean;
  /** Never post `delivered`: `read` arrives without one before it, as the platform sometimes does. */
  skip_delivered: boolean;
  /** A message's statuses arrive together, several in one webhook's `statuses` array, as the platform batches them. */
  statuses_in_one_post: boolean;
  /** The byte step of every resumable upload (`POST /upload:…`) answers HTTP 500, Graph code 1, after its session was opened: an upload failing mid-way. */
  upload_error: boolean;
  /** Share (0..1) of accepted sends reported `sent`, then `failed` with this platform error code (e.g. 131049); null = off. */
  fail_status: FailStatus | null;
  /** While set, every request of that onboarding step answers HTTP 500, Graph code 1 (the platform failing); null = off. */
  onboarding_fault: OnboardingFault | null;
}

/** The platform calls of an onboarding (contract §19), each of which `onboarding_fault` can make fail. */
export const ONBOARDING_FAULTS = ['code_exchange', 'register', 'subscribed_apps', 'phone_numbers', 'phone_number', 'message_templates'] as const;
export type OnboardingFault = (typeof ONBOARDING_FAULTS)[number];

export interface FailStatus {
  code: number;
  share: number;
}

export type SendFault = 'rate_limit' | 'server_error' | 'timeout' | 'account_error' | 'pair_limit' | undefined;

const SHARES = ['rate_limit_share', 'server_error_share', 'timeout_share', 'pair_limit_share', 'held_share'] as const;
const FLAGS = ['duplicate_statuses', 'reorder_statuses', 'no_webhooks', 'skip_delivered', 'statuses_in_one_post', 'upload_error'] as const;
const COUNTS = ['fail_next', 'status_interval_ms', 'account_error_code', 'pair_limit_ms'] as const;

/** The fault state of one simulator. */
export class Faults {
  private settings: FaultSettings;

  constructor(
    private readonly defaultStatusIntervalMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.settings = this.defaults();
  }

  get current(): Readonly<FaultSettings> {
    return this.settings;
  }

  reset(): void {
    this.settings = this.defaults();
  }

  /** Applies the given keys (validated first, all or nothing); unknown keys and bad values throw Graph error 100. */
  update(patch: unknown): void {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw graphErrors.invalidParameter('Fault settings must be a JSON object');
    }
    const next = { ...this.settings };
    for (const [key, value] of Object.entries(patch)) {
      if ((SHARES as readonly string[]).includes(key)) {
        if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw graphErrors.invalidParameter(`${key} must be a number from 0 to 1`);
        next[key as (typeof SHARES)[number]] = value;
      } else if ((FLAGS as readonly string[]).includes(key)) {
        if (typeof value !== 'boolean') throw graphErrors.invalidParameter(`${key} must be a boolean`);
        next[key as (typeof FLAGS)[number]] = value;
      } else if ((COUNTS as readonly string[]).includes(key)) {
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
          throw graphErrors.invalidParameter(`${key} must be a non-negative integer`);
        }
        next[key as (typeof COUNTS)[number]] = value;
      } else if (key === 'onboarding_fault') {
        if (value !== null && !(ONBOARDING_FAULTS as readonly unknown[]).includes(value)) {
          throw graphErrors.invalidParameter(`onboarding_fault must be null or one of ${ONBOARDING_FAULTS.join(', ')}`);
        }
        next.onboarding_fault = value as OnboardingFault | null;
      } else if (key === 'fail_status') {
        next.fail_status = failStatusOf(value);
      } else {
        throw graphErrors.invalidParameter(`Unknown fault setting ${key}`);
      }
    }
    this.settings = next;
  }

  /** Decides whether this send request fails, consuming one `fail_next` if any is left. */
  nextSendFault(): SendFault {
    if (this.settings.account_error_code > 0) return 'account_error';
    if (this.settings.fail_next > 0) {
      this.settings = { ...this.settings, fail_next: this.settings.fail_next - 1 };
      return 'rate_limit';
    }
    if (this.settings.rate_limit_share > 0 && this.random() < this.settings.rate_limit_share) return 'rate_limit';
    if (this.settings.server_error_share > 0 && this.random() < this.settings.server_error_share) return 'server_error';
    if (this.settings.pair_limit_share > 0 && this.random() < this.settings.pair_limit_share) return 'pair_limit';
    if (this.settings.timeout_share > 0 && this.random() < this.settings.timeout_share) return 'timeout';
    return undefined;
  }

  /** Throws the platform's unknown error (HTTP 500, code 1) while `onboarding_fault` names this call. */
  failOnboardingStep(call: OnboardingFault): void {
    if (this.settings.onboarding_fault === call) throw graphErrors.unknown();
  }

  /** Whether this accepted template send is answered as held for quality assessment. */
  holdsForQuality(): boolean {
    return this.settings.held_share > 0 && this.random() < this.settings.held_share;
  }

  /** The platform error code this accepted send is reported `failed` with, or undefined when it is reported as usual. */
  failedStatusCode(): number | undefined {
    const failing = this.settings.fail_status;
    return failing && failing.share > 0 && this.random() < failing.share ? failing.code : undefined;
  }

  private defaults(): FaultSettings {
    return {
      rate_limit_share: 0,
      server_error_share: 0,
      timeout_share: 0,
      pair_limit_share: 0,
      pair_limit_ms: 0,
      held_share: 0,
      account_error_code: 0,
      duplicate_statuses: false,
      reorder_statuses: false,
      fail_next: 0,
      status_interval_ms: this.defaultStatusIntervalMs,
      no_webhooks: false,
      skip_delivered: false,
      statuses_in_one_post: false,
      upload_error: false,
      fail_status: null,
      onboarding_fault: null,
    };
  }
}

/** `fail_status` as given: null, or `{ code, share }` with a positive integer code and a share from 0 to 1. */
function failStatusOf(value: unknown): FailStatus | null {
  if (value === null) return null;
  const given = value as Partial<FailStatus>;
  const valid =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).every((key) => key === 'code' || key === 'share') &&
    Number.isInteger(given.code) &&
    given.code! > 0 &&
    typeof given.share === 'number' &&
    given.share >= 0 &&
    given.share <= 1;
  if (!valid) throw graphErrors.invalidParameter('fail_status must be null or { code: a positive integer, share: a number from 0 to 1 }');
  return { code: given.code!, share: given.share! };
}
