/**
 * Contact search's text rules (docs/decisions.md, "Contact search"): what a term matches and
 * which index entries a contact gets so that every match is found by a key-prefix query.
 */

/** Index entries keep this many characters of their text; a longer term is checked against the whole text. */
export const ENTRY_KEY_CHARS = 64;
/** Word starts indexed per name or email: bounds a contact's entries (and a rename's transaction); later words match as part of a longer term. */
export const MAX_WORD_STARTS = 16;
/** A phone term matches numbers only with at least this many digits (shorter runs are in nearly every number). */
export const MIN_PHONE_DIGITS = 3;

const WORD_CHAR = /[\p{L}\p{N}\p{M}\p{Extended_Pictographic}]/u;
/** Scripts written without spaces between words: every character may start one. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const PHONE_TERM = /^\+?[\d\s\-.()]+$/;

/** Lower case, accents and compatibility forms folded, white space collapsed: `Ångström  Café` → `angstrom cafe`. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The folded text from each word start on (the first MAX_WORD_STARTS): the keys under which a prefix query finds every word-start match. */
export function wordStartSuffixes(text: string): string[] {
  const chars = Array.from(fold(text));
  const starts = chars.flatMap((char, i) => (WORD_CHAR.test(char) && (i === 0 || !WORD_CHAR.test(chars[i - 1]) || UNSPACED_SCRIPT.test(char)) ? [i] : []));
  return starts.slice(0, MAX_WORD_STARTS).map((i) => chars.slice(i).join(''));
}

/** The number's digits from each position on that leaves a run of MIN_PHONE_DIGITS: every run of that length or more is the start of one. */
export const digitSuffixes = (digits: string): string[] => Array.from({ length: Math.max(0, digits.length - MIN_PHONE_DIGITS + 1) }, (_, i) => digits.slice(i));

/** The first ENTRY_KEY_CHARS characters (whole code points) of a text. */
export const entryKey = (text: string): string => Array.from(text).slice(0, ENTRY_KEY_CHARS).join('');

export interface SearchTerm {
  /** The folded term from its first word character: matches a name or email at the start of any word. */
  text: string;
  /** The term's digits when it looks like a phone number (digits with +, spaces, dashes, dots or parentheses) and has enough of them. */
  digits?: string;
}

/** What a `search` value looks for; `text` is empty for a term without a word character (it matches no name or email). */
export function parseTerm(term: string): SearchTerm {
  const chars = Array.from(fold(term));
  const first = chars.findIndex((char) => WORD_CHAR.test(char));
  const text = first === -1 ? '' : chars.slice(first).join('');
  const digits = term.replace(/\D/g, '');
  return PHONE_TERM.test(term.trim()) && digits.length >= MIN_PHONE_DIGITS ? { text, digits } : { text };
}
