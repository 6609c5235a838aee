import type { SessionKind } from '#shared/domain/messages/kinds/kind';
import { mediaObject } from '#shared/platform/payloads/media';

export interface MediaInput {
  link?: string;
  media_id?: string;
  caption?: string;
  filename?: string;
}

/**
 * Image, video, audio, document and sticker: a public link or an uploaded media id, with the
 * caption (not for audio and stickers, refused by the schema) and a document's file name.
 */
export const media: SessionKind<MediaInput> = {
  accept: (_ws, input) => ({
    content: input.caption ?? '',
    media: {
      media_id: input.media_id ?? null,
      link: input.link ?? null,
      mime_type: null,
      sha256: null,
      caption: input.caption ?? null,
      filename: input.filename ?? null,
      size: null,
    },
  }),
  platformObject: ({ media }) => mediaObject(media!),
};
