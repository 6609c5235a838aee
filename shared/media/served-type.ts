/**
 * The types a customer's media copy is stored and served as (contract §22): images, audio, video,
 * PDF, office documents and plain text as declared; anything else (HTML, SVG, scripts, archives)
 * as `application/octet-stream`, so no link ever opens as a live page on the bucket's domain.
 * The message keeps the type the customer's app declared (`media.mime_type`).
 */
const SERVED_AS_DECLARED = [
  /^image\/(jpeg|png|webp|gif)$/,
  /^audio\/(aac|amr|mpeg|mp4|ogg|opus)$/,
  /^video\/(mp4|3gpp)$/,
  /^application\/pdf$/,
  /^application\/(msword|vnd\.ms-excel|vnd\.ms-powerpoint)$/,
  /^application\/vnd\.openxmlformats-officedocument\.(wordprocessingml\.document|spreadsheetml\.sheet|presentationml\.presentation)$/,
  /^text\/plain$/,
];

export const OPAQUE_TYPE = 'application/octet-stream';

/** The declared type without parameters (`audio/ogg; codecs=opus` is `audio/ogg`), lowercased. */
const essence = (mimeType: string) => mimeType.split(';')[0].trim().toLowerCase();

export function servedType(declared: string): string {
  const type = essence(declared);
  return SERVED_AS_DECLARED.some((allowed) => allowed.test(type)) ? type : OPAQUE_TYPE;
}

/** Every media copy is a download, never rendered inline by a browser following its link. */
export const MEDIA_DISPOSITION = 'attachment';
