import { randomBytes } from 'node:crypto';

type Json = Record<string, unknown>;

/**
 * A number's calling settings as `GET /{phone_number_id}/settings` shows them. "Calling is not
 * enabled by default on a business phone number" (Meta, "Configure Call Settings"): a number never
 * configured answers `status: DISABLED`; its other defaults are not documented and are the page's
 * first values (`call_icon_visibility: DEFAULT`), `callback_permission_status: DISABLED`, and SIP
 * "DISABLED (default)" [INFERRED].
 */
export interface CallingSettings {
  status: 'ENABLED' | 'DISABLED';
  call_icon_visibility: 'DEFAULT' | 'DISABLE_ALL';
  callback_permission_status: 'ENABLED' | 'DISABLED';
  call_icons?: Json;
  call_hours?: Json;
  sip: { status: 'ENABLED' | 'DISABLED'; servers?: { hostname: string; port: number }[] };
  srtp_key_exchange_protocol?: 'DTLS' | 'SDES';
  audio?: Json;
  voicemail?: Json;
}

const defaults = (): CallingSettings => ({
  status: 'DISABLED',
  call_icon_visibility: 'DEFAULT',
  callback_permission_status: 'DISABLED',
  sip: { status: 'DISABLED' },
});

/** The fields the `account_settings_update` webhook watches (the page: "only changes to these fields are observed"). */
const watched = (s: CallingSettings) =>
  [s.status, s.call_icon_visibility, s.callback_permission_status, s.sip.status, s.srtp_key_exchange_protocol ?? ''].join('|');

/** A tier the platform names (`TIER_250`, `TIER_2K`, `TIER_UNLIMITED`) as a number of conversations; undefined when not one. */
export function messagingLimitOf(tier: string | undefined): number | undefined {
  if (tier === 'TIER_UNLIMITED') return Number.POSITIVE_INFINITY;
  const match = /^TIER_(\d+)(K?)$/.exec(tier ?? '');
  return match ? Number(match[1]) * (match[2] ? 1000 : 1) : undefined;
}

/** Every number's calling settings, and the SIP password the platform issues for a configured SIP server. */
export class CallSettings {
  private settings = new Map<string, CallingSettings>();
  private sipPasswords = new Map<string, string>();

  get(phoneNumberId: string): CallingSettings {
    return this.settings.get(phoneNumberId) ?? defaults();
  }

  enabled(phoneNumberId: string): boolean {
    return this.get(phoneNumberId).status === 'ENABLED';
  }

  sipEnabled(phoneNumberId: string): boolean {
    return this.get(phoneNumberId).sip.status === 'ENABLED';
  }

  /** Applies a checked update (each part replaces the stored one); true when a watched field changed. */
  update(phoneNumberId: string, update: Json): boolean {
    const before = this.get(phoneNumberId);
    const after = { ...before, ...update };
    this.settings.set(phoneNumberId, after);
    if (after.sip.servers?.length && !this.sipPasswords.has(phoneNumberId)) this.sipPasswords.set(phoneNumberId, randomBytes(12).toString('base64url'));
    return watched(before) !== watched(after);
  }

  /**
   * The `calling` object as the GET answers it: SIP servers name their hostname, and their
   * `sip_user_password` only with `include_sip_credentials=true`; the webhook gives hostname and port.
   */
  view(phoneNumberId: string, form: 'get' | 'get_with_credentials' | 'webhook'): Json {
    const { sip, ...rest } = this.get(phoneNumberId);
    const password = this.sipPasswords.get(phoneNumberId);
    const servers = sip.servers?.map((server) =>
      form === 'webhook'
        ? { hostname: server.hostname, port: server.port }
        : { hostname: server.hostname, ...(form === 'get_with_credentials' && password && { sip_user_password: password }) },
    );
    return { ...rest, sip: { status: sip.status, ...(servers && { servers }) } };
  }
}
