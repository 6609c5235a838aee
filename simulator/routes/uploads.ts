import { graphErrors } from '#simulator/graph-error';
import { ok, type JsonResponse, type RouteContext } from '#simulator/http';
import type { SimulatorState } from '#simulator/state';

/** A template example is at most a few MB; anything far larger is refused before it is read. */
const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

/** `POST /{version}/{app_id}/uploads?file_length=&file_type=`: opens an upload session, `{ id: "upload:…" }`. */
export const openUploadSession =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok({ id: state.uploads.open(Number(ctx.url.searchParams.get('file_length')), ctx.url.searchParams.get('file_type') ?? '') });

/** `POST /{version}/upload:…` with header `file_offset` and the bytes: `{ h: "<handle>" }` once the whole file is in. */
export const receiveUpload =
  (state: SimulatorState) =>
  async (ctx: RouteContext): Promise<JsonResponse> => {
    if (state.faults.current.upload_error) throw graphErrors.unknown();
    const offset = Number(ctx.headers.file_offset ?? Number.NaN);
    return ok(state.uploads.receive(ctx.params.sessionId, offset, await ctx.readBytes(MAX_UPLOAD_BYTES)));
  };

/** `GET /{version}/upload:…`: where the session stands, to resume it. */
export const uploadStatus =
  (state: SimulatorState) =>
  (ctx: RouteContext): JsonResponse =>
    ok(state.uploads.status(ctx.params.sessionId));
