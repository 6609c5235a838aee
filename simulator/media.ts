import { createHash, randomBytes } from 'node:crypto';

/** What the platform keeps of one media object: its bytes and type, and how its download behaves. */
export interface StoredMedia {
  id: string;
  bytes: Buffer;
  mime_type: string;
  /** `not_found`: the download answers 404; `timeout`: it never answers (a client gives up). */
  download: 'ok' | 'not_found' | 'timeout';
}

const MIME_TYPES: Record<string, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/ogg; codecs=opus',
  document: 'application/pdf',
  sticker: 'image/webp',
};

/** The media objects customers sent, by id, as `GET /{media_id}` and its download serve them. */
export class MediaStore {
  private readonly items = new Map<string, StoredMedia>();

  /** The media of an inbound message: the given id (bytes of its own unless registered), or a new one. */
  forInbound(type: string, id?: string): StoredMedia {
    const known = id && this.items.get(id);
    if (known) return known;
    const media: StoredMedia = {
      id: id ?? String(10n ** 15n + BigInt(randomBytes(6).readUIntBE(0, 6))),
      bytes: Buffer.concat([Buffer.from(`simulated ${type} `), randomBytes(2048)]),
      mime_type: MIME_TYPES[type] ?? 'application/octet-stream',
      download: 'ok',
    };
    this.items.set(media.id, media);
    return media;
  }

  register(media: StoredMedia): void {
    this.items.set(media.id, media);
  }

  get(id: string): StoredMedia | undefined {
    return this.items.get(id);
  }
}

/** A media object's `sha256` as `GET /{media-id}` gives it: hex. */
export const sha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
/** The same hash as inbound media webhooks carry it: base64 (docs/platform-payloads.md, "Media `url`" and the media fixtures). */
export const webhookSha256Of = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('base64');
