/** ISO-8601 UTC with milliseconds, the contract's timestamp format. */
export const nowIso = (): string => new Date().toISOString();

/** `YYYY-MM-DD` in UTC. */
export const utcDate = (date: Date = new Date()): string => date.toISOString().slice(0, 10);

/** Unix seconds, for the table's TTL attribute. */
export const epochSeconds = (date: Date = new Date()): number => Math.floor(date.getTime() / 1000);
