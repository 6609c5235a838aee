import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import type { SessionKindName } from '#shared/domain/messages/kinds/names';
import { interactive } from '#shared/domain/messages/kinds/interactive';
import { location } from '#shared/domain/messages/kinds/location';
import { media } from '#shared/domain/messages/kinds/media';
import { reaction } from '#shared/domain/messages/kinds/reaction';
import { text } from '#shared/domain/messages/kinds/text';

/** Every session kind's module, by its name. */
export const sessionKinds: Record<SessionKindName, SessionKind<never>> = {
  text,
  image: media,
  video: media,
  audio: media,
  document: media,
  sticker: media,
  location,
  interactive,
  reaction,
};
