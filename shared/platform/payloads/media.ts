/** A media message as the service keeps it: a public link or an uploaded media id, a caption and a document's file name. */
export interface MediaContent {
  link: string | null;
  media_id: string | null;
  caption: string | null;
  filename: string | null;
}

/** The object of an image, video, audio, document or sticker message: its link when it has one, else its media id. */
export const mediaObject = (media: MediaContent) => ({
  ...(media.link ? { link: media.link } : { id: media.media_id }),
  ...(media.caption && { caption: media.caption }),
  ...(media.filename && { filename: media.filename }),
});
