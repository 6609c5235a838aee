/**
 * The dialable form of a number the platform writes as a WhatsApp id. The platform's `wa_id` (the
 * inbound `from`, the send answer's `contacts[].wa_id`, a status's `recipient_id`) is not always
 * the number a person dials (docs/conversations.md, "Who the customer is"):
 *
 * - Mexico: mobile ids carry the `1` after `52` that dialling dropped in 2019 (`521…` → `52…`).
 * - Brazil: ids of older accounts lack the ninth digit every mobile number gained by 2016
 *   (`55` + area code + an 8-digit mobile number starting 6–9 → the 9 is put back).
 *
 * One number, one form: the window, the contact and the history all use the dialable digits.
 */
export function dialableDigits(digits: string): string {
  if (/^521\d{10}$/.test(digits)) return `52${digits.slice(3)}`;
  const brazil = /^55([1-9]\d)([6-9]\d{7})$/.exec(digits);
  if (brazil) return `55${brazil[1]}9${brazil[2]}`;
  return digits;
}
