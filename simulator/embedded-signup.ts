import { randomBytes, randomInt } from 'node:crypto';

/** How long a code from Embedded Signup can be exchanged (contract §19: once, for 10 minutes). */
export const CODE_TTL_MS = 10 * 60_000;

interface IssuedCode {
  wabaId: string;
  expiresAt: number;
  used: boolean;
}

/**
 * What the platform's Embedded Signup leaves behind, as the simulator keeps it: one-time codes,
 * the business tokens they were exchanged for (each one business account's), each number's
 * two-step verification PIN and whether it is registered for the Cloud API.
 */
export class EmbeddedSignups {
  private codes = new Map<string, IssuedCode>();
  /** Business tokens from code exchanges, by token: the business account they act for. */
  private businessTokens = new Map<string, string>();
  private pins = new Map<string, string>();
  private registered = new Set<string>();

  /** A new code for this account (the number's PIN is set once, the first time). */
  issue(wabaId: string, phoneNumberId: string, ttlMs = CODE_TTL_MS): { code: string; pin: string } {
    const code = `AQ${randomBytes(24).toString('base64url')}`;
    this.codes.set(code, { wabaId, expiresAt: Date.now() + ttlMs, used: false });
    const pin = this.pins.get(phoneNumberId) ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.pins.set(phoneNumberId, pin);
    return { code, pin };
  }

  /** Exchanges a code once, before it expires: the business token, or why not. */
  exchange(code: string): { token: string } | { refused: 'unknown' | 'used' | 'expired' } {
    const issued = this.codes.get(code);
    if (!issued) return { refused: 'unknown' };
    if (issued.used) return { refused: 'used' };
    if (issued.expiresAt <= Date.now()) return { refused: 'expired' };
    issued.used = true;
    const token = `EAAG${randomBytes(32).toString('base64url')}`;
    this.businessTokens.set(token, issued.wabaId);
    return { token };
  }

  /** The business account a token from an exchange acts for; undefined for the app's own (system user) tokens. */
  accountOf(token: string | undefined): string | undefined {
    return token === undefined ? undefined : this.businessTokens.get(token);
  }

  isBusinessToken(token: string): boolean {
    return this.businessTokens.has(token);
  }

  pinMatches(phoneNumberId: string, pin: string): boolean {
    const set = this.pins.get(phoneNumberId);
    return set === undefined || set === pin;
  }

  register(phoneNumberId: string, pin: string): void {
    this.pins.set(phoneNumberId, pin);
    this.registered.add(phoneNumberId);
  }

  isRegistered(phoneNumberId: string): boolean {
    return this.registered.has(phoneNumberId);
  }
}
