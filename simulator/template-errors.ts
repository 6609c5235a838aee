import { GraphError } from '#simulator/graph-error';

/**
 * The platform's refusals of template management, shaped as the Graph API answers them: code
 * 100 "Invalid parameter" with an `error_subcode` and what it tells a person in
 * `error_user_title` / `error_user_msg` (sources in docs/templates.md §5).
 */
const refusal = (subcode: number | undefined, title: string, message: string, status = 400): GraphError =>
  new GraphError(status, 100, 'OAuthException', 'Invalid parameter', subcode, undefined, { title, message });

export const templateErrors = {
  /** 2388024: that name already has content in that language in the business account. */
  exists: (language: string) =>
    refusal(2388024, 'Message template already exists', `There is already ${language} content for this template. You can create a new template and try again.`),
  /** 2388023: that name and language were deleted and cannot be created again yet. */
  beingDeleted: (language: string) =>
    refusal(
      2388023,
      'Message template language is being deleted',
      `${language} content is being deleted. Create a new template with a different name, or try again later.`,
    ),
  /** 2388040: a text over its limit. */
  characterLimit: (what: string) => refusal(2388040, 'Character limit exceeded', `${what} is over its character limit.`),
  /** 2388047: a header the platform cannot take (format, placeholders, example handle). */
  headerFormat: (details: string) => refusal(2388047, 'Message header format is incorrect', details),
  /** 2388073: a footer with placeholders or over its length. */
  footerFormat: (details: string) => refusal(2388073, 'Message footer format is incorrect', details),
  /** Any other definition the platform refuses (missing body, examples, button rules). */
  invalidDefinition: (details: string) => refusal(undefined, 'Invalid template', details),
  /** An approved template edited again within a day. */
  editTooSoon: () => refusal(undefined, 'Template edit limit reached', 'An approved message template can be edited once in 24 hours. Try again later.'),
  /** An approved template edited more often than the platform allows in 30 days. */
  tooManyEdits: () => refusal(undefined, 'Template edit limit reached', 'An approved message template can be edited up to 10 times in 30 days.'),
  /** Templates in review cannot be edited. */
  notEditable: (status: string) => refusal(undefined, 'Message template cannot be edited', `A ${status} message template cannot be edited.`),
  /** The category of an approved template cannot change. */
  categoryLocked: () => refusal(undefined, 'Category cannot be changed', 'The category of an approved message template cannot be changed.'),
};
