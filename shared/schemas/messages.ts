import * as v from 'valibot';
import { MESSAGE_STATUSES } from '#shared/records/message';
import { SESSION_KINDS } from '#shared/domain/messages/kinds/names';
import {
  businessNumber,
  droppable,
  languageCode,
  location,
  pageParams,
  phone,
  platformId,
  templateButtons,
  templateHeader,
  userId,
  templateName,
  uuid,
  variables,
} from '#shared/schemas/common';

/** Text the recipient reads: not blank, kept as written (no trimming), at most `max` characters. */
const words = (max: number) =>
  v.pipe(
    v.string(),
    v.check((t) => t.trim().length > 0, 'Must not be blank'),
    v.maxLength(max, `Must be at most ${max} characters`),
  );

const link = () =>
  v.pipe(v.string(), v.maxLength(2048, 'Must be at most 2048 characters'), v.url('Must be a URL'), v.startsWith('https://', 'Must be an https:// URL'));
const mediaId = () => v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,256}$/, 'Must be a platform media id'));
const exactlyOneSource = () =>
  v.check((m: { link?: string; media_id?: string }) => (m.link === undefined) !== (m.media_id === undefined), 'Exactly one of link and media_id is required');
const source = () => ({ link: v.optional(link()), media_id: v.optional(mediaId()) });
const caption = () => v.optional(words(1024));
const noCaption = () => v.optional(v.never('Audio and stickers take no caption'));
const filename = () => v.optional(v.pipe(v.string(), v.minLength(1, 'Must not be empty'), v.maxLength(240, 'Must be at most 240 characters')));

/** Session media (contract §13): a public https link or an uploaded media id, captions where the platform shows them. */
const sessionMedia = {
  image: () => v.pipe(v.strictObject({ ...source(), caption: caption() }), exactlyOneSource()),
  video: () => v.pipe(v.strictObject({ ...source(), caption: caption() }), exactlyOneSource()),
  document: () => v.pipe(v.strictObject({ ...source(), caption: caption(), filename: filename() }), exactlyOneSource()),
  audio: () => v.pipe(v.strictObject({ ...source(), caption: noCaption() }), exactlyOneSource()),
  sticker: () => v.pipe(v.strictObject({ ...source(), caption: noCaption() }), exactlyOneSource()),
};

const unique = (ids: string[]) => new Set(ids).size === ids.length;

const replyButton = () => v.strictObject({ id: words(256), title: words(20) });
const listRow = () => v.strictObject({ id: words(200), title: words(24), description: v.optional(words(72)) });
const listSection = () => v.strictObject({ title: v.optional(words(24)), rows: v.pipe(v.array(listRow()), v.minLength(1, 'At least one row')) });

/**
 * A flow behind its call-to-action button (contract §21), in the platform's terms (M-openapi,
 * docs/platform-requests.md §4.3). Its rules across fields (a token, one of id and name, a
 * first screen only to navigate, the data's size) are the domain's, answered 422.
 */
const flowMessage = () =>
  v.strictObject({
    type: v.literal('flow'),
    header: v.optional(words(60)),
    body: words(1024),
    footer: v.optional(words(60)),
    flow_id: v.optional(words(100)),
    flow_name: v.optional(words(200)),
    flow_cta: words(30),
    flow_token: v.optional(words(1024)),
    flow_action: v.optional(v.picklist(['navigate', 'data_exchange'], 'Must be navigate or data_exchange')),
    screen: v.optional(words(100)),
    data: v.optional(v.record(v.string(), v.unknown(), 'Must be an object')),
    flow_message_version: v.optional(v.literal('3', 'Must be "3", the only version the platform takes')),
    mode: v.optional(v.picklist(['draft', 'published'], 'Must be draft or published')),
  });

/** Reply buttons, lists and flows, to the platform's limits (contract §13, §21). */
const interactive = () =>
  v.variant(
    'type',
    [
      v.strictObject({
        type: v.literal('button'),
        header: v.optional(words(60)),
        body: words(1024),
        footer: v.optional(words(60)),
        buttons: v.pipe(
          v.array(replyButton()),
          v.minLength(1, 'At least one button'),
          v.maxLength(3, 'At most 3 buttons'),
          v.check((buttons) => unique(buttons.map((b) => b.id)), 'Button ids must be unique'),
          // The platform refuses two buttons with one title (docs/platform-requests.md).
          v.check((buttons) => unique(buttons.map((b) => b.title)), 'Button titles must be unique'),
        ),
      }),
      v.strictObject({
        type: v.literal('list'),
        header: v.optional(words(60)),
        body: words(4096),
        footer: v.optional(words(60)),
        button: words(20),
        sections: v.pipe(
          v.array(listSection()),
          v.minLength(1, 'At least one section'),
          v.maxLength(10, 'At most 10 sections'),
          v.check((sections) => sections.reduce((n, s) => n + s.rows.length, 0) <= 10, 'At most 10 rows in all'),
          v.check((sections) => unique(sections.flatMap((s) => s.rows.map((r) => r.id))), 'Row ids must be unique'),
          v.check((sections) => sections.length === 1 || sections.every((s) => s.title !== undefined), 'Every section needs a title when there are several'),
        ),
      }),
      flowMessage(),
      // Asks a customer known only by user id to share their number (contract §23); their reply is merged into their contact.
      v.strictObject({ type: v.literal('request_contact_info'), body: words(1024) }),
    ],
    'Must be { type: "button", … }, { type: "list", … }, { type: "flow", … } or { type: "request_contact_info", body }',
  );

/** A reaction to a message of this workspace; an empty emoji takes the reaction back. */
const reaction = () =>
  v.strictObject({
    message_id: uuid(),
    emoji: v.pipe(
      v.string(),
      v.maxLength(16, 'Must be one emoji'),
      v.check(
        (e) => e === '' || /^\p{Extended_Pictographic}/u.test(e) || /^\p{Regional_Indicator}/u.test(e),
        'Must be an emoji, or empty to remove the reaction',
      ),
    ),
  });

const KINDS = ['template', ...SESSION_KINDS] as const;
const given = (input: object) => KINDS.filter((kind) => (input as Record<string, unknown>)[kind] !== undefined);

/** POST /api/v1/messages */
export const sendMessageBody = /* @__PURE__ */ droppable(() =>
  v.pipe(
    v.object({
      to: v.optional(phone()),
      to_user_id: v.optional(userId()),
      to_group_id: v.optional(uuid()),
      template: v.optional(
        v.union([templateName(), v.object({ name: templateName(), language: v.optional(languageCode()) })], 'Must be a template name or { name, language }'),
      ),
      variables: v.optional(variables()),
      header: v.optional(templateHeader()),
      buttons: v.optional(templateButtons()),
      language: v.optional(languageCode()),
      text: v.optional(
        v.pipe(
          v.string(),
          v.check((t) => t.trim().length > 0, 'Must not be empty'),
          v.maxLength(4096, 'Must be at most 4096 characters'),
        ),
      ),
      image: v.optional(sessionMedia.image()),
      video: v.optional(sessionMedia.video()),
      audio: v.optional(sessionMedia.audio()),
      document: v.optional(sessionMedia.document()),
      sticker: v.optional(sessionMedia.sticker()),
      location: v.optional(location()),
      interactive: v.optional(interactive()),
      reaction: v.optional(reaction()),
      reply_to: v.optional(uuid()),
      from: v.optional(businessNumber()),
    }),
    v.forward(
      v.partialCheck(
        [['template'], ['text'], ['image'], ['video'], ['audio'], ['document'], ['sticker'], ['location'], ['interactive'], ['reaction']],
        (input) => given(input).length === 1,
        `Exactly one of ${KINDS.join(', ')} is required`,
      ),
      ['template'],
    ),
    v.forward(
      v.partialCheck(
        [['to'], ['to_user_id'], ['to_group_id']],
        (input) => [input.to, input.to_user_id, input.to_group_id].filter((given) => given !== undefined).length === 1,
        'Exactly one of to, to_user_id and to_group_id is required',
      ),
      ['to'],
    ),
    v.forward(
      v.partialCheck(
        [['template'], ['variables']],
        (input) => input.template !== undefined || input.variables === undefined,
        'Variables apply to template messages only',
      ),
      ['variables'],
    ),
    v.forward(
      v.partialCheck(
        [['template'], ['header']],
        (input) => input.template !== undefined || input.header === undefined,
        'A header applies to template messages only',
      ),
      ['header'],
    ),
    v.forward(
      v.partialCheck(
        [['template'], ['buttons']],
        (input) => input.template !== undefined || input.buttons === undefined,
        'Buttons apply to template messages only',
      ),
      ['buttons'],
    ),
  ),
);

export type SendMessageBody = v.InferOutput<typeof sendMessageBody>;

/** POST /api/v1/messages/{id}/read (contract §21); the body may be left out. */
export const markReadBody = /* @__PURE__ */ droppable(() =>
  v.optional(
    v.strictObject({
      typing: v.optional(
        v.pipe(v.boolean('Must be true or false'), v.description('Also show the customer the typing indicator, until the reply or 25 seconds')),
      ),
    }),
    {},
  ),
);

/** GET /api/v1/messages */
export const listMessagesQuery = /* @__PURE__ */ droppable(() =>
  v.object({
    ...pageParams,
    status: v.optional(v.picklist(MESSAGE_STATUSES, `Must be one of ${MESSAGE_STATUSES.join(', ')}`)),
    phone: v.optional(phone()),
    direction: v.optional(v.picklist(['outbound', 'inbound'], 'Must be outbound or inbound')),
    campaign_id: v.optional(uuid()),
    chat_group_id: v.optional(uuid()),
    business_number_id: v.optional(platformId('phone number id')),
    cursor: v.optional(v.pipe(v.string(), v.maxLength(4096, 'Not a cursor from this list'))),
  }),
);
