import type { AppContact, HistoryChunk, HistoryMessage } from '#simulator/coexistence-webhooks';
import { displayPhoneNumber } from '#simulator/ids';

const DAY_S = 86_400;
/** Messages per `history` webhook: small, so that a sync shows several chunks (the platform's "could potentially describe thousands"). */
export const HISTORY_CHUNK_SIZE = 2;

/**
 * What the business's WhatsApp Business app holds, as the simulator makes it up for a sync: two
 * contacts with a chat each, a few messages in each of the three phases (the last day, days 1–90,
 * days 90–180), both ways. Stable per number, so a test can predict it.
 */
export function appDataOf(phoneNumberId: string, nowMs = Date.now()): { contacts: AppContact[]; history: HistoryMessage[] } {
  const now = Math.floor(nowMs / 1000);
  const people = [
    { phone: displayPhoneNumber(`${phoneNumberId}:app-contact:1`), name: 'Ana Souza' },
    { phone: displayPhoneNumber(`${phoneNumberId}:app-contact:2`), name: 'Ben Okafor' },
  ];
  const [ana, ben] = people.map((p) => p.phone);
  const message = (customer: string, fromBusiness: boolean, ageS: number, text?: string): HistoryMessage => ({
    customer,
    fromBusiness,
    timestamp: now - ageS,
    ...(text !== undefined && { text }),
    status: 'READ',
  });
  const history = [
    message(ana, false, 120 * DAY_S, 'Do you deliver on Saturdays?'),
    message(ana, true, 120 * DAY_S - 60, 'Yes, from 9 to 13.'),
    message(ben, false, 30 * DAY_S, 'Is the blue one back in stock?'),
    message(ben, true, 30 * DAY_S - 120),
    message(ana, false, 2 * 3600, 'Thanks!'),
    message(ana, true, 2 * 3600 - 30, "Here's the info you requested!"),
  ];
  return { contacts: people.map((p) => ({ ...p, action: 'add' as const })), history };
}

/** Which phase a message of this age falls in; undefined past 180 days (not synchronised). */
function phaseOf(ageS: number): HistoryChunk['phase'] | undefined {
  if (ageS <= DAY_S) return 0;
  if (ageS <= 90 * DAY_S) return 1;
  if (ageS <= 180 * DAY_S) return 2;
  return undefined;
}

/**
 * The history split as the platform sends it (§3.2): phase by phase, each in chunks numbered from 1
 * (`chunk_order`), `progress` the share of all messages sent so far, 100 on the last chunk. A phase
 * without messages sends nothing ("If there is no chat history available for a given phase, no
 * corresponding webhooks will be sent").
 */
export function historyChunks(messages: readonly HistoryMessage[], nowMs = Date.now()): { chunk: HistoryChunk; messages: HistoryMessage[] }[] {
  const now = Math.floor(nowMs / 1000);
  const phases = new Map<number, HistoryMessage[]>();
  for (const m of [...messages].sort((a, b) => b.timestamp - a.timestamp)) {
    const phase = phaseOf(now - m.timestamp);
    if (phase !== undefined) phases.set(phase, [...(phases.get(phase) ?? []), m]);
  }
  const total = [...phases.values()].reduce((sum, list) => sum + list.length, 0);
  const chunks: { chunk: HistoryChunk; messages: HistoryMessage[] }[] = [];
  let sent = 0;
  for (const phase of [0, 1, 2] as const) {
    const list = phases.get(phase) ?? [];
    for (let i = 0; i < list.length; i += HISTORY_CHUNK_SIZE) {
      const part = list.slice(i, i + HISTORY_CHUNK_SIZE);
      sent += part.length;
      chunks.push({ chunk: { phase, chunk_order: i / HISTORY_CHUNK_SIZE + 1, progress: Math.floor((sent / total) * 100) }, messages: part });
    }
  }
  return chunks;
}
