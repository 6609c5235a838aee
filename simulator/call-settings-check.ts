import { callingErrors } from '#simulator/calling-errors';

/**
 * Checks the `calling` object of `POST /{phone_number_id}/settings` as Meta's "Configure Call
 * Settings" (Jun 26 2026; docs/platform-calling.md §1) describes it, and answers the parts given,
 * normalised. Every refusal is error 100 with the page's own wording of the error ("Invalid status",
 * "Invalid schedule for call_hours", "Timezone is invalid in call_hours", …) in `error_data.details`.
 */
type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const invalid = callingErrors.invalidParameter;

const STATUSES = ['ENABLED', 'DISABLED'];
const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

function oneOf(value: unknown, allowed: readonly string[], what: string): string {
  if (typeof value !== 'string' || !allowed.includes(value)) throw invalid(`Invalid ${what}: must be one of ${allowed.join(', ')}.`);
  return value;
}

/** An `"HHMM"` time; the table says Integer, the examples send strings: both are taken, a string is kept. */
function clock(value: unknown, where: string): string {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value).padStart(4, '0') : value;
  if (typeof text !== 'string' || !/^([01]\d|2[0-3])[0-5]\d$/.test(text)) throw invalid(`Invalid schedule for call_hours: ${where} must be an HHMM time.`);
  return text;
}

function validTimezone(value: unknown): string {
  if (typeof value !== 'string' || !value) throw invalid('Timezone is invalid in call_hours.');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    throw invalid('Timezone is invalid in call_hours.');
  }
  return value;
}

/** Windows of one day: at most 2, each opening before it closes, not overlapping. */
function checkDay(windows: { open: string; close: string }[], where: string): void {
  if (windows.length > 2) throw invalid(`More than 2 entries not allowed in ${where} schedule in call_hours.`);
  for (const w of windows) if (w.open >= w.close) throw invalid(`Invalid schedule for call_hours: open time must be before close time in ${where}.`);
  const sorted = [...windows].sort((a, b) => a.open.localeCompare(b.open));
  for (let i = 1; i < sorted.length; i++) if (sorted[i].open < sorted[i - 1].close) throw invalid('Overlapping schedule in call_hours is not allowed.');
}

function callHours(value: unknown, today: string): Json {
  if (!isObject(value)) throw invalid('Invalid schedule for call_hours.');
  const status = oneOf(value.status, STATUSES, 'status in call_hours');
  const timezone_id = validTimezone(value.timezone_id);
  const weekly = value.weekly_operating_hours;
  if (!Array.isArray(weekly) || !weekly.length) throw invalid('weekly_operating_hours in call_hours cannot be empty.');
  const weekly_operating_hours = weekly.map((entry, i) => {
    if (!isObject(entry)) throw invalid(`Invalid schedule for call_hours: weekly_operating_hours[${i}] must be an object.`);
    const day_of_week = oneOf(entry.day_of_week, DAYS, `day_of_week in weekly_operating_hours[${i}]`);
    return { day_of_week, open_time: clock(entry.open_time, 'open_time'), close_time: clock(entry.close_time, 'close_time') };
  });
  for (const day of DAYS)
    checkDay(
      weekly_operating_hours.filter((w) => w.day_of_week === day).map((w) => ({ open: w.open_time, close: w.close_time })),
      'weekly_operating_hours',
    );
  // Left out, the holiday schedule is deleted (the page's note).
  const holidays = value.holiday_schedule ?? [];
  if (!Array.isArray(holidays) || holidays.length > 20) throw invalid('holiday_schedule in call_hours takes up to 20 entries.');
  const holiday_schedule = holidays.map((entry, i) => {
    if (!isObject(entry) || typeof entry.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(entry.date) || Number.isNaN(Date.parse(entry.date)))
      throw invalid(`Date format in holiday_schedule for call_hours is invalid (entry ${i}).`);
    if (entry.date < today) throw invalid('Holiday given in call_hours is a past date.');
    // The examples name the times start_time/end_time, the table open_time/close_time: both are taken.
    return {
      date: entry.date,
      start_time: clock(entry.start_time ?? entry.open_time, 'start_time'),
      end_time: clock(entry.end_time ?? entry.close_time, 'end_time'),
    };
  });
  for (const date of new Set(holiday_schedule.map((h) => h.date)))
    checkDay(
      holiday_schedule.filter((h) => h.date === date).map((h) => ({ open: h.start_time, close: h.end_time })),
      'holiday_schedule',
    );
  return { status, timezone_id, weekly_operating_hours, holiday_schedule };
}

function sip(value: unknown): Json {
  if (!isObject(value)) throw invalid('Invalid sip settings.');
  const status = oneOf(value.status, STATUSES, 'status in sip');
  const servers = value.servers ?? [];
  if (!Array.isArray(servers) || servers.length > 1) throw invalid('Each phone number can have only one SIP server configured.');
  return {
    status,
    servers: servers.map((server) => {
      if (!isObject(server) || typeof server.hostname !== 'string' || !server.hostname) throw invalid('sip servers need a hostname.');
      const port = server.port ?? 5061;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) throw invalid('sip server port must be a port number.');
      return { hostname: server.hostname, port, ...(isObject(server.request_uri_user_params) && { request_uri_user_params: server.request_uri_user_params }) };
    }),
  };
}

function voicemail(value: unknown): Json {
  if (!isObject(value)) throw invalid('Invalid voicemail settings.');
  const status = oneOf(value.status, STATUSES, 'status in voicemail');
  if (status === 'DISABLED') return { status };
  const triggers = value.triggers;
  if (!Array.isArray(triggers) || !triggers.length) throw invalid('voicemail triggers are required when voicemail is ENABLED.');
  triggers.forEach((t) => oneOf(t, ['REJECT', 'TIMEOUT'], 'voicemail trigger'));
  const audio = isObject(value.audio) && isObject(value.audio.default) ? value.audio.default : undefined;
  if (!audio || audio.announcement_media_id === undefined)
    throw invalid('voicemail audio.default.announcement_media_id is required when voicemail is ENABLED.');
  const timeout = audio.timeout_seconds;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 0 || timeout > 30))
    throw invalid('voicemail timeout_seconds must be between 0 and 30.');
  return {
    status,
    triggers,
    audio: { default: { announcement_media_id: audio.announcement_media_id, ...(timeout !== undefined && { timeout_seconds: timeout }) } },
  };
}

/** The checked parts of a `calling` update; each part given replaces the stored one whole. */
export function checkCallingUpdate(calling: unknown, now = new Date()): Json {
  if (!isObject(calling)) throw invalid('The parameter calling is required and must be an object.');
  const update: Json = {};
  if (calling.status !== undefined) update.status = oneOf(calling.status, STATUSES, 'status');
  if (calling.call_icon_visibility !== undefined)
    update.call_icon_visibility = oneOf(calling.call_icon_visibility, ['DEFAULT', 'DISABLE_ALL'], 'call_icon_visibility');
  if (calling.callback_permission_status !== undefined)
    update.callback_permission_status = oneOf(calling.callback_permission_status, STATUSES, 'callback_permission_status');
  if (calling.srtp_key_exchange_protocol !== undefined)
    update.srtp_key_exchange_protocol = oneOf(calling.srtp_key_exchange_protocol, ['DTLS', 'SDES'], 'srtp_key_exchange_protocol');
  if (calling.call_icons !== undefined) {
    const countries = isObject(calling.call_icons) ? calling.call_icons.restrict_to_user_countries : undefined;
    if (!Array.isArray(countries) || countries.some((c) => typeof c !== 'string' || !/^[A-Z]{2}$/.test(c)))
      throw invalid('call_icons.restrict_to_user_countries must be a list of two-letter country codes.');
    update.call_icons = { restrict_to_user_countries: countries };
  }
  if (calling.call_hours !== undefined) update.call_hours = callHours(calling.call_hours, now.toISOString().slice(0, 10));
  if (calling.sip !== undefined) update.sip = sip(calling.sip);
  if (calling.audio !== undefined) {
    const codecs = isObject(calling.audio) ? calling.audio.additional_codecs : undefined;
    if (!Array.isArray(codecs)) throw invalid('audio.additional_codecs must be a list.');
    codecs.forEach((c) => oneOf(c, ['PCMA', 'PCMU'], 'additional codec'));
    update.audio = { additional_codecs: codecs };
  }
  if (calling.voicemail !== undefined) update.voicemail = voicemail(calling.voicemail);
  return update;
}
