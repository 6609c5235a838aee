/**
 * The platform's rules for a template's `BUTTONS` component (contract §18, Meta "Template
 * components"): at most 10 buttons, quick replies grouped together (all before or all after the
 * others), button texts of at most 25 characters, a URL button's one placeholder `{{1}}` only at
 * the end of its URL with a full example URL, a copy-code example of at most 15 characters.
 */
import type { ErrorDetail } from '#shared/errors';
import { placeholdersOf } from '#shared/records/template';
import type { ButtonDefinition } from '#shared/records/template-definition';

const MAX_BUTTONS = 10;
const MAX_BUTTON_TEXT = 25;
const MAX_COPY_CODE = 15;
const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'];

/** The first quick reply that is separated from the ones before it by another kind of button, if any. */
function ungroupedQuickReply(buttons: ButtonDefinition[]): number | undefined {
  let seenQuickReply = false;
  let leftGroup = false;
  for (const [index, button] of buttons.entries()) {
    if (button.type !== 'QUICK_REPLY') {
      leftGroup = seenQuickReply;
      continue;
    }
    if (leftGroup) return index;
    seenQuickReply = true;
  }
  return undefined;
}

function urlProblems(button: ButtonDefinition, at: string): ErrorDetail[] {
  const url = button.url ?? '';
  if (!url) return [{ field: `${at}.url`, message: 'A URL button needs its url' }];
  const placeholders = placeholdersOf(url);
  if (placeholders.length === 0) return [];
  if (placeholders.length > 1 || placeholders[0] !== '1' || !/\{\{\s*1\s*\}\}$/.test(url))
    return [{ field: `${at}.url`, message: "A URL button's one placeholder must be {{1}}, at the end of its URL" }];
  const examples = Array.isArray(button.example) ? button.example : [button.example];
  return typeof examples[0] === 'string' && examples[0].trim() ? [] : [{ field: `${at}.example`, message: 'Give the full URL of an example' }];
}

function buttonProblems(button: ButtonDefinition, at: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (button.type !== 'OTP' && !button.text?.trim()) problems.push({ field: `${at}.text`, message: 'A button needs its text' });
  else if ((button.text ?? '').length > MAX_BUTTON_TEXT) problems.push({ field: `${at}.text`, message: `At most ${MAX_BUTTON_TEXT} characters` });
  if (button.type === 'URL') problems.push(...urlProblems(button, at));
  if (button.type === 'PHONE_NUMBER' && !button.phone_number?.trim())
    problems.push({ field: `${at}.phone_number`, message: 'A phone button needs its number' });
  if (button.type === 'COPY_CODE' && (typeof button.example !== 'string' || !button.example.trim() || button.example.length > MAX_COPY_CODE))
    problems.push({ field: `${at}.example`, message: `A copy-code button needs an example code of at most ${MAX_COPY_CODE} characters` });
  if (button.type === 'OTP' && !OTP_TYPES.includes(button.otp_type ?? ''))
    problems.push({ field: `${at}.otp_type`, message: `Must be one of ${OTP_TYPES.join(', ')}` });
  return problems;
}

/** Every problem of a BUTTONS component at `at` (e.g. `components.3`). */
export function buttonsProblems(buttons: ButtonDefinition[] | undefined, at: string): ErrorDetail[] {
  if (!buttons?.length) return [{ field: `${at}.buttons`, message: 'A BUTTONS component needs at least one button' }];
  const problems: ErrorDetail[] = [];
  if (buttons.length > MAX_BUTTONS) problems.push({ field: `${at}.buttons`, message: `At most ${MAX_BUTTONS} buttons` });
  const ungrouped = ungroupedQuickReply(buttons);
  if (ungrouped !== undefined) problems.push({ field: `${at}.buttons.${ungrouped}.type`, message: 'Quick replies must be grouped together' });
  buttons.forEach((button, index) => problems.push(...buttonProblems(button, `${at}.buttons.${index}`)));
  return problems;
}
