/** The send window's clock (contract §15): local days and times in IANA zones, past midnight, daylight saving time. */
import { isKnownTimeZone, isOpen, nextOpening } from '#shared/domain/campaigns/send-window';
import type { SendWindow } from '#shared/records/campaign';

const EVERY_DAY: SendWindow['days'] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const at = (iso: string) => Date.parse(iso);
const opening = (window: SendWindow, zone: string, iso: string) => {
  const next = nextOpening(window, zone, at(iso));
  return next === null ? null : new Date(next).toISOString();
};

describe('send window', () => {
  const office: SendWindow = { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], time_zone: 'Europe/Lisbon' };

  it('is open from start (inclusive) to end (exclusive) on its days, in its zone', () => {
    // Monday 23 November 2026; Lisbon is on UTC in winter.
    expect(isOpen(office, 'Europe/Lisbon', at('2026-11-23T09:00:00Z'))).toBe(true);
    expect(isOpen(office, 'Europe/Lisbon', at('2026-11-23T16:59:59Z'))).toBe(true);
    expect(isOpen(office, 'Europe/Lisbon', at('2026-11-23T17:00:00Z'))).toBe(false);
    expect(isOpen(office, 'Europe/Lisbon', at('2026-11-23T08:59:59Z'))).toBe(false);
    expect(isOpen(office, 'Europe/Lisbon', at('2026-11-28T12:00:00Z'))).toBe(false);
  });

  it('opens next at the start of the next listed day, and not at all while open', () => {
    expect(opening(office, 'Europe/Lisbon', '2026-11-23T12:00:00Z')).toBeNull();
    expect(opening(office, 'Europe/Lisbon', '2026-11-23T18:00:00Z')).toBe('2026-11-24T09:00:00.000Z');
    // Friday evening: Monday.
    expect(opening(office, 'Europe/Lisbon', '2026-11-27T17:00:00Z')).toBe('2026-11-30T09:00:00.000Z');
  });

  it("reads the same window in a contact's own zone, offsets of quarter hours included", () => {
    // Monday 12:00 UTC is 17:45 in Kathmandu (UTC+5:45): closed there, opens Tuesday 09:00 local.
    expect(isOpen(office, 'Asia/Kathmandu', at('2026-11-23T12:00:00Z'))).toBe(false);
    expect(opening(office, 'Asia/Kathmandu', '2026-11-23T12:00:00Z')).toBe('2026-11-24T03:15:00.000Z');
    expect(opening(office, 'America/New_York', '2026-11-23T12:00:00Z')).toBe('2026-11-23T14:00:00.000Z');
  });

  it('runs past midnight when it ends before it starts, belonging to the day it starts', () => {
    const night: SendWindow = { start: '22:00', end: '06:00', days: ['fri'], time_zone: 'UTC' };
    expect(isOpen(night, 'UTC', at('2026-11-27T22:00:00Z'))).toBe(true);
    expect(isOpen(night, 'UTC', at('2026-11-28T05:59:00Z'))).toBe(true);
    expect(isOpen(night, 'UTC', at('2026-11-28T06:00:00Z'))).toBe(false);
    // Friday 03:00 belongs to Thursday's night, which is not listed.
    expect(isOpen(night, 'UTC', at('2026-11-27T03:00:00Z'))).toBe(false);
    expect(opening(night, 'UTC', '2026-11-23T12:00:00Z')).toBe('2026-11-27T22:00:00.000Z');
  });

  it('follows daylight saving time: a start the clock skips opens after the gap, a repeated one at its first occurrence', () => {
    const early: SendWindow = { start: '02:30', end: '04:00', days: EVERY_DAY, time_zone: 'America/New_York' };
    // 8 March 2026: New York's clocks go from 02:00 EST to 03:00 EDT.
    expect(opening(early, 'America/New_York', '2026-03-08T05:00:00Z')).toBe('2026-03-08T07:30:00.000Z');
    // 1 November 2026: 01:30 happens twice (EDT, then EST).
    expect(opening({ ...early, start: '01:30' }, 'America/New_York', '2026-11-01T04:00:00Z')).toBe('2026-11-01T05:30:00.000Z');
    // Summer time in Lisbon: 09:00 local is 08:00 UTC.
    expect(opening(office, 'Europe/Lisbon', '2026-07-06T06:00:00Z')).toBe('2026-07-06T08:00:00.000Z');
  });

  it('knows IANA zones and nothing else', () => {
    expect(isKnownTimeZone('Europe/Lisbon')).toBe(true);
    expect(isKnownTimeZone('Asia/Kathmandu')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('+05:00 please')).toBe(false);
  });
});
