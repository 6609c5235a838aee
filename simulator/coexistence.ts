/** The two synchronisations a coexistence number asks for once (docs/platform-coexistence.md §2). */
export const SYNC_TYPES = ['smb_app_state_sync', 'history'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

/** "Business phone numbers that are in use with both the WhatsApp Business app and Cloud API have a fixed throughput of 20 mps." */
export const COEXISTENCE_MPS = 20;
/** "After you onboard the business customer, you have 24 hours to synchronize their contacts and messaging history." */
export const SYNC_WINDOW_MS = 24 * 3_600_000;

interface CoexistenceNumber {
  onboardedAt: number;
  synced: Set<SyncType>;
  offboarded: boolean;
  /** When sends were accepted in the last second, for the 20 mps throughput. */
  sends: number[];
}

/**
 * What the simulator keeps of numbers on the WhatsApp Business app and the Cloud API at once
 * (`is_on_biz_app`, set by `POST /_simulate/numbers` or Embedded Signup's coexistence mode): when
 * each was onboarded, which syncs it asked for, whether it went back to the app alone, and its sends.
 */
export class Coexistence {
  private numbers = new Map<string, CoexistenceNumber>();

  private of(phoneNumberId: string, now: number): CoexistenceNumber {
    let number = this.numbers.get(phoneNumberId);
    if (!number) {
      number = { onboardedAt: now, synced: new Set(), offboarded: false, sends: [] };
      this.numbers.set(phoneNumberId, number);
    }
    return number;
  }

  /** (Re)onboarded through Embedded Signup: a fresh 24-hour window, both syncs available again, registered again. */
  onboard(phoneNumberId: string, now = Date.now()): void {
    this.numbers.set(phoneNumberId, { onboardedAt: now, synced: new Set(), offboarded: false, sends: [] });
  }

  offboard(phoneNumberId: string): void {
    this.of(phoneNumberId, Date.now()).offboarded = true;
  }

  isOffboarded(phoneNumberId: string): boolean {
    return this.numbers.get(phoneNumberId)?.offboarded === true;
  }

  /** A sync request: `repeated` past the first of its type, `late` after the 24-hour window, else accepted and remembered. */
  requestSync(phoneNumberId: string, type: SyncType, now = Date.now()): 'accepted' | 'repeated' | 'late' {
    const number = this.of(phoneNumberId, now);
    if (number.synced.has(type)) return 'repeated';
    if (now - number.onboardedAt > SYNC_WINDOW_MS) return 'late';
    number.synced.add(type);
    return 'accepted';
  }

  /** Counts a send; false when the number already had 20 in the last second. */
  takeSend(phoneNumberId: string, now = Date.now()): boolean {
    const number = this.of(phoneNumberId, now);
    number.sends = number.sends.filter((at) => now - at < 1000);
    if (number.sends.length >= COEXISTENCE_MPS) return false;
    number.sends.push(now);
    return true;
  }
}
