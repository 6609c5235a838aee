/** The parts of a WhatsApp Cloud API webhook the service acts on, read defensively: it is outside input. */

export interface PlatformStatus {
  phoneNumberId: string;
  providerMessageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  at: string;
  callbackData?: string;
  error?: { code: number | string; title: string };
}

export interface PlatformInbound {
  phoneNumberId: string;
  providerMessageId: string;
  from: string;
  at: string;
  type: string;
  content: string;
  profileName?: string;
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter((v): v is Json => Boolean(v) && typeof v === 'object') : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const time = (seconds: unknown): string => {
  const ms = Number(seconds) * 1000;
  return new Date(Number.isFinite(ms) && ms > 0 ? ms : Date.now()).toISOString();
};
const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/** The text of a message, or its caption, or an empty string for kinds without text. */
function textOf(message: Json): string {
  const type = str(message.type) ?? 'unknown';
  const body = message[type] as Json | undefined;
  return str((message.text as Json | undefined)?.body) ?? str(body?.caption) ?? str(body?.body) ?? '';
}

export function readWebhook(payload: unknown): { statuses: PlatformStatus[]; messages: PlatformInbound[] } {
  const statuses: PlatformStatus[] = [];
  const messages: PlatformInbound[] = [];
  for (const entry of list((payload as Json | null)?.entry)) {
    for (const change of list(entry.changes)) {
      const value = (change.value ?? {}) as Json;
      const phoneNumberId = str((value.metadata as Json | undefined)?.phone_number_id);
      if (!phoneNumberId) continue;
      const names = new Map(list(value.contacts).map((c) => [str(c.wa_id), str((c.profile as Json | undefined)?.name)]));
      for (const status of list(value.statuses)) {
        const id = str(status.id);
        if (!id || !STATUSES.has(String(status.status))) continue;
        const [error] = list(status.errors);
        statuses.push({
          phoneNumberId,
          providerMessageId: id,
          status: status.status as PlatformStatus['status'],
          at: time(status.timestamp),
          callbackData: str(status.biz_opaque_callback_data),
          ...(error && { error: { code: (error.code as number | string) ?? 'unknown', title: str(error.title) ?? str(error.message) ?? 'Unknown error' } }),
        });
      }
      for (const message of list(value.messages)) {
        const id = str(message.id);
        const from = str(message.from)?.replace(/\D/g, '');
        if (!id || !from) continue;
        messages.push({ phoneNumberId, providerMessageId: id, from, at: time(message.timestamp), type: str(message.type) ?? 'unknown', content: textOf(message), profileName: names.get(from) });
      }
    }
  }
  return { statuses, messages };
}
