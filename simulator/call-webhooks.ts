import type { SimulatedCall } from '#simulator/calls';
import { displayPhoneNumber } from '#simulator/ids';
import { numberWebhook, unixSeconds, type BusinessNumber } from '#simulator/webhook-payloads';

/**
 * The `calls` webhooks as the platform posts them (docs/platform-calling.md §4): one change, field
 * `calls`, whose value has `messaging_product`, `metadata`, the customer in `contacts[]`, and
 * `calls[]` (connect, terminate) or `statuses[]` (a business-initiated call's RINGING / ACCEPTED /
 * REJECTED). Keys are in the order of Meta's examples (MWRS `calling.reference__*` and
 * `calling.user-initiated-calls__*`). A user-initiated call comes `from` the customer `to` the
 * business; a business-initiated one `from` the business `to` the customer, with `to_user_id`
 * (META-BSUID, which resolves the reference page's swapped sample).
 */
type Json = Record<string, unknown>;

const seconds = (ms: number) => unixSeconds(ms);

export const callsWebhook = (number: BusinessNumber, value: Json) => numberWebhook(number, 'calls', value);

const contactsOf = (call: SimulatedCall) => [
  { profile: { name: call.name }, ...(call.user_id !== call.customer && { wa_id: call.customer }), ...(call.user_id && { user_id: call.user_id }) },
];

/** Who called whom, as each direction names the parties. */
function parties(call: SimulatedCall): Json {
  const business = displayPhoneNumber(call.phone_number_id);
  const byUserIdOnly = call.user_id !== undefined && call.user_id === call.customer;
  if (call.direction === 'USER_INITIATED')
    return { to: business, ...(!byUserIdOnly && { from: call.customer }), ...(call.user_id && { from_user_id: call.user_id }) };
  // The user's number "can be omitted" for a user called by user id alone (META-BSUID).
  return { ...(!byUserIdOnly && { to: call.customer }), ...(call.user_id && { to_user_id: call.user_id }), from: business };
}

/** `event: connect`: a user-initiated call's SDP offer (§4.1), or the customer's SDP answer to a business-initiated call (§4.2). */
export function connectWebhook(number: BusinessNumber, call: SimulatedCall, at = Date.now()) {
  const userInitiated = call.direction === 'USER_INITIATED';
  return callsWebhook(number, {
    contacts: contactsOf(call),
    calls: [
      {
        id: call.id,
        ...parties(call),
        event: 'connect',
        timestamp: seconds(at),
        direction: call.direction,
        ...(call.biz_opaque_callback_data !== undefined && !userInitiated && { biz_opaque_callback_data: call.biz_opaque_callback_data }),
        session: userInitiated ? { sdp_type: 'offer', sdp: call.offer_sdp } : { sdp_type: 'answer', sdp: call.answer_sdp },
      },
    ],
  });
}

/**
 * `event: terminate` (§4.3): `status` COMPLETED with `start_time`, `end_time` (string seconds) and
 * `duration` (integer seconds) for a call that connected; FAILED without them for one that never
 * did (a missed, rejected or declined call: no source shows one, so no times are invented) [INFERRED].
 */
export function terminateWebhook(number: BusinessNumber, call: SimulatedCall) {
  const connected = call.connected_at !== undefined && call.duration !== undefined;
  return callsWebhook(number, {
    contacts: contactsOf(call),
    calls: [
      {
        id: call.id,
        ...parties(call),
        event: 'terminate',
        direction: call.direction,
        ...(call.biz_opaque_callback_data !== undefined && { biz_opaque_callback_data: call.biz_opaque_callback_data }),
        timestamp: seconds(call.ended_at ?? Date.now()),
        status: call.status ?? 'FAILED',
        ...(connected && { start_time: seconds(call.connected_at!), end_time: seconds(call.ended_at!), duration: call.duration }),
      },
    ],
  });
}

export type CallStatusName = 'RINGING' | 'ACCEPTED' | 'REJECTED';

/** A business-initiated call's status (§4.4): `statuses[]` with `type: call`, in the `calls` field. */
export function callStatusWebhook(number: BusinessNumber, call: SimulatedCall, status: CallStatusName, at = Date.now()) {
  const byUserIdOnly = call.user_id !== undefined && call.user_id === call.customer;
  return callsWebhook(number, {
    statuses: [
      {
        id: call.id,
        timestamp: seconds(at),
        type: 'call',
        status,
        ...(!byUserIdOnly && { recipient_id: call.customer }),
        ...(call.user_id && { recipient_user_id: call.user_id }),
        ...(call.biz_opaque_callback_data !== undefined && { biz_opaque_callback_data: call.biz_opaque_callback_data }),
      },
    ],
  });
}

/** `account_settings_update` (§1.1): the number's `calling` object as the GET answers it; `type` is the table's `PHONE_NUMBER_SETTINGS`. */
export function settingsUpdateWebhook(number: BusinessNumber, calling: Json, at = Date.now()) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              timestamp: seconds(at),
              type: 'PHONE_NUMBER_SETTINGS',
              phone_number_settings: { phone_number_id: number.phoneNumberId, calling },
            },
            field: 'account_settings_update',
          },
        ],
      },
    ],
  };
}

/** The SDP offer a customer's WhatsApp sends (the user-initiated connect example of §4.1, its IPv6 candidate, extmaps and ssrc labels left out). */
export const CUSTOMER_SDP_OFFER =
  'v=0\r\no=- 7602563789789945080 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE audio\r\na=msid-semantic: WMS 6932bc1c-db1a-4abe-b437-0c4168be8a13\r\na=ice-lite\r\nm=audio 40012 UDP/TLS/RTP/SAVPF 111 126\r\nc=IN IP4 31.13.65.60\r\na=rtcp:9 IN IP4 0.0.0.0\r\na=candidate:1972637320 1 udp 2113937151 31.13.65.60 40012 typ host generation 0 network-cost 50 ufrag 6k2qP1R6kBfI/2\r\na=ice-ufrag:6k2qP1R6kBfI/2\r\na=ice-pwd:UApvJw3NcwFRDvIMKdM0vWCdlXah25E9\r\na=fingerprint:sha-256 1B:B6:6B:40:A5:0B:8C:75:0D:8C:CB:90:2F:99:74:1E:26:45:AE:AF:45:C1:51:60:8F:73:C9:2D:10:6D:8A:88\r\na=setup:actpass\r\na=mid:audio\r\na=sendrecv\r\na=rtcp-mux\r\na=rtpmap:111 opus/48000/2\r\na=rtcp-fb:111 transport-cc\r\na=fmtp:111 minptime=10;useinbandfec=1\r\na=rtpmap:126 telephone-event/8000\r\na=ssrc:4208138518 cname:gAXq2V9TKltrnapv\r\n';

/** The SDP answer the platform relays for a customer who picks up (the business-initiated connect example of §4.2, shortened the same way: ICE-lite, `a=setup:active`). */
export const CUSTOMER_SDP_ANSWER =
  'v=0\r\no=- 741807839102053725 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=extmap-allow-mixed\r\na=msid-semantic: WMS 798a9670-c0d6-47a8-925e-5f082ef4d8a0\r\na=ice-lite\r\nm=audio 3482 UDP/TLS/RTP/SAVPF 111 9 0 8 110 126\r\nc=IN IP4 31.13.65.130\r\na=rtcp:9 IN IP4 0.0.0.0\r\na=candidate:2754936280 1 udp 2113937151 31.13.65.130 3482 typ host generation 0 network-cost 50 ufrag JHqAXFH4HcAY/8\r\na=ice-ufrag:JHqAXFH4HcAY/8\r\na=ice-pwd:dNNMmR8wUcGezvfBZOO0Qgcwl2m86GP/\r\na=ice-options:trickle\r\na=fingerprint:sha-256 9C:97:5C:4C:A9:BE:9E:2F:06:94:F5:BB:38:2C:A1:29:B5:69:B8:FA:94:10:56:1D:0B:5D:80:28:C1:FD:F0:F6\r\na=setup:active\r\na=mid:0\r\na=sendrecv\r\na=rtcp-mux\r\na=rtpmap:111 opus/48000/2\r\na=rtcp-fb:111 transport-cc\r\na=fmtp:111 minptime=10;useinbandfec=1\r\na=rtpmap:9 G722/8000\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:8 PCMA/8000\r\na=rtpmap:110 telephone-event/48000\r\na=rtpmap:126 telephone-event/8000\r\na=ssrc:3407645770 cname:bg8KQDoIk2UJa6sf\r\n';
