import { newWamid } from '#simulator/ids';

export type CallDirection = 'USER_INITIATED' | 'BUSINESS_INITIATED';

/** Where a call is: ringing (not answered yet), pre-accepted by the business, connected, or over. */
export type CallState = 'ringing' | 'pre_accepted' | 'connected' | 'ended';

/** One call the simulator saw, as `GET /_simulate/calls` lists it. */
export interface SimulatedCall {
  id: string;
  phone_number_id: string;
  direction: CallDirection;
  /** The customer's WhatsApp id (or their user id when called by `recipient` alone). */
  customer: string;
  user_id?: string;
  /** The customer's profile name, for `contacts[]`. */
  name: string;
  state: CallState;
  biz_opaque_callback_data?: string;
  /** The SDP offer: the customer's (user-initiated) or the business's (business-initiated). */
  offer_sdp: string;
  /** The SDP answer: the business's (`pre_accept`/`accept`) or the customer's (`connect` webhook). */
  answer_sdp?: string;
  /** Epoch ms. */
  created_at: number;
  connected_at?: number;
  ended_at?: number;
  /** Who ended it: `business` (terminate / reject) or `customer` (hang-up / decline). */
  ended_by?: 'business' | 'customer';
  /** The terminate webhook's `status`. */
  status?: 'COMPLETED' | 'FAILED';
  /** Seconds, for a call that was connected. */
  duration?: number;
  /** Whether its RINGING status was posted (business-initiated calls). */
  rang?: boolean;
  /** The actions the business posted to `/calls` for it, in order. */
  actions: { action: string; at: number }[];
}

/**
 * A call id shaped like the platform's (`wacid.HBgL…`): the same record as a message id, holding the
 * customer's number, in the URL-safe alphabet with its padding (the examples show both: `…V-Hc5e…`
 * and `…FQIAEhgg…AA==`), so it can stand in a path.
 */
export const newCallId = (customer: string): string => `wacid.${newWamid(customer).slice('wamid.'.length).replace(/\+/g, '-').replace(/\//g, '_')}`;

/** An accepted `POST /{phone_number_id}/calls`, as `GET /_simulate/calls` lists it: the body as sent, the call's id (a `connect`'s new one), the number and when. */
export interface CallRequest {
  call_id: string;
  action: string;
  phone_number_id: string;
  received_at: string;
  [field: string]: unknown;
}

/** Every call of a simulator, by id: what it is and where it is, so actions on calls that are over are refused; and the call requests accepted. */
export class Calls {
  private calls = new Map<string, SimulatedCall>();
  private requests: CallRequest[] = [];

  /** Records an accepted call request (the body as parsed from JSON). */
  record(phoneNumberId: string, callId: string, body: Record<string, unknown>, now = Date.now()): void {
    this.requests.push({ ...body, call_id: callId, action: String(body.action), phone_number_id: phoneNumberId, received_at: new Date(now).toISOString() });
  }

  /** The accepted call requests, oldest first; of one number when given. */
  requestsOf(phoneNumberId?: string): CallRequest[] {
    return phoneNumberId === undefined ? [...this.requests] : this.requests.filter((r) => r.phone_number_id === phoneNumberId);
  }

  add(call: Omit<SimulatedCall, 'id' | 'state' | 'created_at' | 'actions'>, now = Date.now()): SimulatedCall {
    const created: SimulatedCall = { id: newCallId(call.customer), state: 'ringing', created_at: now, actions: [], ...call };
    this.calls.set(created.id, created);
    return created;
  }

  get(id: string): SimulatedCall | undefined {
    return this.calls.get(id);
  }

  /** Calls, oldest first; of one number when given. */
  list(phoneNumberId?: string): SimulatedCall[] {
    const all = [...this.calls.values()];
    return phoneNumberId === undefined ? all : all.filter((call) => call.phone_number_id === phoneNumberId);
  }

  /** The call going on (not over) between this number and this customer, if any. */
  ongoing(phoneNumberId: string, customer: string): SimulatedCall | undefined {
    return this.list(phoneNumberId).find((call) => call.customer === customer && call.state !== 'ended');
  }

  connect(call: SimulatedCall, now = Date.now()): void {
    call.state = 'connected';
    call.connected_at = now;
  }

  /**
   * Ends a call: a connected one COMPLETED with its duration (`durationS`, else the time since it
   * connected), one never connected FAILED without one.
   */
  end(call: SimulatedCall, endedBy: 'business' | 'customer', now = Date.now(), durationS?: number): void {
    if (call.connected_at !== undefined) {
      call.duration = durationS ?? Math.max(0, Math.round((now - call.connected_at) / 1000));
      call.status = 'COMPLETED';
      call.ended_at = call.connected_at + call.duration * 1000;
    } else {
      call.status = 'FAILED';
      call.ended_at = now;
    }
    call.state = 'ended';
    call.ended_by = endedBy;
  }
}
