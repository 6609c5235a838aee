import * as v from 'valibot';
import { businessNumber, droppable, pageParams, phone, platformId } from '#shared/schemas/common';

/**
 * The largest SDP the service relays. The platform documents no limit (docs/platform-calling.md §0);
 * a WebRTC offer is a few kilobytes, so 64 KB leaves room and keeps a call item well inside DynamoDB's item size.
 */
export const MAX_SDP_LENGTH = 65_536;
const sdp = () =>
  v.pipe(
    v.string('Must be the SDP as a string'),
    v.minLength(1, 'Must not be empty'),
    v.maxLength(MAX_SDP_LENGTH, `Must be at most ${MAX_SDP_LENGTH} characters`),
    v.description('The session description (RFC 8866), passed to the platform untouched'),
  );

/** GET and PATCH /api/v1/numbers/{id}/calling: the number by its phone number id. */
export const callingNumberParams = /* @__PURE__ */ droppable(() => v.object({ id: platformId('phone number id') }));

/** PATCH /api/v1/numbers/{id}/calling */
export const callingSettingsBody = /* @__PURE__ */ droppable(() =>
  v.object({
    enabled: v.optional(v.boolean()),
    icon_visibility: v.optional(v.picklist(['DEFAULT', 'DISABLE_ALL'], 'Must be DEFAULT or DISABLE_ALL')),
    callback_permission: v.optional(v.boolean()),
    hours: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown(), 'Must be an object'),
        v.description("The platform's `call_hours` object (status, timezone_id, weekly_operating_hours, holiday_schedule)"),
      ),
    ),
  }),
);

/** POST /api/v1/calls/permission-requests */
export const permissionRequestBody = /* @__PURE__ */ droppable(() =>
  v.object({
    to: phone(),
    from: v.optional(businessNumber()),
    body: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Must not be empty'), v.maxLength(1024, 'Must be at most 1024 characters'))),
  }),
);

/** POST /api/v1/calls */
export const placeCallBody = /* @__PURE__ */ droppable(() => v.object({ to: phone(), from: v.optional(businessNumber()), sdp: sdp() }));

/** POST /api/v1/calls/{id}/pre-accept and /accept */
export const sdpAnswerBody = /* @__PURE__ */ droppable(() => v.object({ sdp: sdp() }));

/** GET /api/v1/calls */
export const listCallsQuery = /* @__PURE__ */ droppable(() => v.object(pageParams));
