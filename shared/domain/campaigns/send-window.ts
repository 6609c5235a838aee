/** Reading a campaign's send window (contract §15) in a zone; the window itself is in shared/records/campaign.ts. */
import { WEEKDAYS, type SendWindow } from '#shared/records/campaign';

/** True when the runtime knows the IANA zone (Intl throws a RangeError for any other). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string) => {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

/** The wall clock in `zone` at `instant`, as the UTC milliseconds of the same wall clock reading. */
function wallClock(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, Number(p.value)]),
  );
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/**
 * The instant at which `zone`'s clock reads `wall` (a wall clock reading as UTC milliseconds), as
 * Temporal's `compatible` disambiguation: a reading the clock shows twice (the hour repeated in
 * autumn) is the first; a reading it skips (the hour lost in spring) is moved on by the gap.
 * Offsets change at most once within a day either side, so those two offsets are the candidates.
 */
function instantOf(wall: number, zone: string): number {
  const offsetAt = (instant: number) => wallClock(instant, zone) - instant;
  const before = wall - offsetAt(wall - DAY_MS);
  const after = wall - offsetAt(wall + DAY_MS);
  const shows = [before, after].filter((instant) => wallClock(instant, zone) === wall);
  return shows.length ? Math.min(...shows) : before;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the window is open at `instant` in `zone`. */
export function isOpen(window: SendWindow, zone: string, instant: number): boolean {
  const wall = wallClock(instant, zone);
  const minute = Math.floor((wall % DAY_MS) / 60_000);
  const day = WEEKDAYS[new Date(wall).getUTCDay()];
  const previousDay = WEEKDAYS[new Date(wall - DAY_MS).getUTCDay()];
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  if (start < end) return window.days.includes(day) && minute >= start && minute < end;
  // Past midnight: the evening part on a listed day, the morning part after one.
  return (window.days.includes(day) && minute >= start) || (window.days.includes(previousDay) && minute < end);
}

/** When the window next opens in `zone` after `instant`; null when it is open at `instant`. */
export function nextOpening(window: SendWindow, zone: string, instant: number): number | null {
  if (isOpen(window, zone, instant)) return null;
  const today = wallClock(instant, zone);
  const midnight = today - (today % DAY_MS);
  // A week and a day covers every listed day, whatever today is.
  for (let days = 0; days <= 7; days++) {
    const date = midnight + days * DAY_MS;
    if (!window.days.includes(WEEKDAYS[new Date(date).getUTCDay()])) continue;
    const opening = instantOf(date + minutesOf(window.start) * 60_000, zone);
    if (opening > instant) return opening;
  }
  throw new Error('A window with at least one day opens within a week');
}

/**
 * The zone a recipient's window is read in: the contact's `custom_fields.time_zone` when it is a
 * zone the runtime knows, else the window's (contract §15).
 */
export const recipientZone = (customFields: Record<string, unknown> | undefined): string | undefined => {
  const zone = customFields?.time_zone;
  return typeof zone === 'string' && isKnownTimeZone(zone) ? zone : undefined;
};
