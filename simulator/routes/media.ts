import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import { sha256Of } from '#simulator/media';
import type { SimulatorState } from '#simulator/state';
import { whatsappErrors } from '#simulator/whatsapp-errors';

/** Where the platform serves a media object's bytes (its CDN, with the access token as Bearer). */
const DOWNLOAD_PATH = '/whatsapp_business/attachments/';

/** `GET /{version}/{media_id}`: the media object, with a download url, as the platform answers it (`file_size` a string). */
export const getMediaObject =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse => {
    const media = state.media.get(ctx.params.mediaId);
    if (!media) throw graphErrors.unsupportedRequest('GET', ctx.params.mediaId);
    const url = new URL(DOWNLOAD_PATH, ctx.url.origin);
    url.searchParams.set('mid', media.id);
    url.searchParams.set('ext', String(Math.floor(Date.now() / 1000)));
    return ok({
      messaging_product: 'whatsapp',
      url: url.toString(),
      mime_type: media.mime_type,
      sha256: sha256Of(media.bytes),
      file_size: String(media.bytes.length),
      id: media.id,
    });
  };

/** The download of a media url: the bytes, with the token; a 404 or no answer when the media was registered so. */
export const downloadMedia =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const media = state.media.get(ctx.url.searchParams.get('mid') ?? '');
    if (!media || media.download === 'not_found') return { status: 404, body: undefined, bytes: Buffer.alloc(0) };
    if (media.download === 'timeout') await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
    return { status: 200, body: undefined, bytes: media.bytes, headers: { 'Content-Type': media.mime_type } };
  };

/**
 * `POST /_simulate/media` `{ id, mime_type?, data_base64?, download? }`: registers a media object a
 * later inbound message names, with chosen bytes or a failing download (`not_found`, `timeout`).
 */
export const registerMedia =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    const body = (await ctx.readJson()) as Record<string, unknown> | undefined;
    if (!body || typeof body.id !== 'string' || !body.id) throw whatsappErrors.invalidParameter('id must be a non-empty string');
    const download = body.download ?? 'ok';
    if (download !== 'ok' && download !== 'not_found' && download !== 'timeout')
      throw whatsappErrors.invalidParameter('download must be ok, not_found or timeout');
    const bytes = typeof body.data_base64 === 'string' ? Buffer.from(body.data_base64, 'base64') : state.media.forInbound('document').bytes;
    state.media.register({ id: body.id, bytes, mime_type: typeof body.mime_type === 'string' ? body.mime_type : 'application/octet-stream', download });
    return ok({ id: body.id, sha256: sha256Of(bytes), file_size: bytes.length });
  };

export const MEDIA_DOWNLOAD_ROUTE = new RegExp(`^${DOWNLOAD_PATH}?$`);
