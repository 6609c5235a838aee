/** The Graph API simulator's test endpoints, as the tests drive them. */
export function simulatorControl(url: () => string) {
  const json = async (path: string, init?: RequestInit) => (await fetch(`${url()}${path}`, init)).json() as Promise<any>;
  const post = (path: string, body: unknown) => json(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return {
    /** Send requests the simulator accepted for this number, oldest first. */
    sends: async (to: string): Promise<{ wamid: string; to: string; request: Record<string, unknown> }[]> => (await json(`/_simulate/messages?to=${to}`)).data,
    faults: (settings: Record<string, unknown>) => post('/_simulate/faults', settings),
    resetFaults: () => json('/_simulate/faults', { method: 'DELETE' }),
    /** A customer's message: text by default, or `type` with the platform's object under its name, and `context` (a wamid). */
    inbound: (body: { phone_number_id: string; from: string; text?: string; name?: string; type?: string; context?: string; [object: string]: unknown }) =>
      post('/_simulate/inbound', body),
    templateStatus: (body: { waba_id: string; name: string; language: string; event: string; reason?: string }) => post('/_simulate/template-status', body),
    /** The platform recategorises a template (`template_category_update`); `impending` pushes only the 24-hour warning. */
    templateCategory: (body: { waba_id: string; name: string; language: string; category: string; impending?: boolean }) =>
      post('/_simulate/template-category', body),
    /** The customer completes the flow message `context` (a wamid): its `nfm_reply`, `response` merged after the flow's token, or `response_json` verbatim. */
    flowReply: (body: { phone_number_id: string; from: string; context: string; response?: Record<string, unknown>; response_json?: string }) =>
      post('/_simulate/flow-reply', body),
    /** Read receipts the simulator accepted, oldest first. */
    readReceipts: async (): Promise<{ phone_number_id: string; message_id: string; typing: boolean; request: Record<string, unknown> }[]> =>
      (await json('/_simulate/read-receipts')).data,
    registerMedia: (body: { id: string; mime_type?: string; data_base64?: string; download?: 'ok' | 'not_found' | 'timeout' }) =>
      post('/_simulate/media', body),
    /** A customer calls the number (calling must be enabled): the `connect` webhook with their SDP offer; `{ call_id, delivered_status }`. */
    incomingCall: (phoneNumberId: string, from: string, sdp?: string): Promise<{ call_id: string; delivered_status: number | null }> =>
      post('/_simulate/calls/incoming', { phone_number_id: phoneNumberId, from, ...(sdp !== undefined && { sdp }) }),
    /** The customer ends the call: `terminate`, with `duration_s` (else the time since it connected) when it was connected. */
    hangUp: (callId: string, durationS?: number) =>
      post(`/_simulate/calls/${encodeURIComponent(callId)}/hangup`, durationS === undefined ? {} : { duration_s: durationS }),
    /** The customer answers a ringing business-initiated call: `connect` with their SDP answer then ACCEPTED, or REJECTED then `terminate`. */
    answerCall: (callId: string, accept: boolean) => post(`/_simulate/calls/${encodeURIComponent(callId)}/answer`, { accept }),
    /** The customer answers the number's last call permission request: the `call_permission_reply` message; the permission follows. */
    permissionReply: (phoneNumberId: string, from: string, accept: boolean, permanent?: boolean) =>
      post('/_simulate/call-permissions/reply', { phone_number_id: phoneNumberId, from, accept, ...(permanent !== undefined && { permanent }) }),
    /** The `/calls` requests the simulator accepted, oldest first: each body as sent, with `call_id` (a connect's new call), `phone_number_id`, `received_at`. */
    calls: async (
      phoneNumberId?: string,
    ): Promise<{ call_id: string; action: string; phone_number_id: string; received_at: string; to?: string; [field: string]: any }[]> =>
      (await json(`/_simulate/calls${phoneNumberId ? `?phone_number_id=${phoneNumberId}` : ''}`)).data,
    /** The calls the simulator keeps, oldest first: direction, state (`ringing`, `pre_accepted`, `connected`, `ended`), status, duration, actions. */
    callStates: async (
      phoneNumberId?: string,
    ): Promise<
      {
        id: string;
        phone_number_id: string;
        direction: string;
        customer: string;
        state: string;
        status?: string;
        duration?: number;
        actions: { action: string }[];
      }[]
    > => (await json(`/_simulate/call-states${phoneNumberId ? `?phone_number_id=${phoneNumberId}` : ''}`)).data,
    /** The number's `calling` settings, as `GET /{phone_number_id}/settings` answers them. */
    callingSettings: async (phoneNumberId: string): Promise<Record<string, any>> =>
      (await json(`/_simulate/call-settings?phone_number_id=${phoneNumberId}`)).calling,
    /** The business types a message in the WhatsApp Business app: `smb_message_echoes`. */
    coexistenceEcho: (phoneNumberId: string, to: string, text: string) => post('/_simulate/coexistence/echo', { phone_number_id: phoneNumberId, to, text }),
    /** One `history` webhook with these messages: `from` a customer for theirs, `to` a customer for the business's own. */
    coexistenceHistory: (phoneNumberId: string, messages: { from?: string; to?: string; text?: string; timestamp: number; status?: string }[]) =>
      post('/_simulate/coexistence/history', { phone_number_id: phoneNumberId, messages }),
    /** The app's contacts change: `smb_app_state_sync`. */
    coexistenceContacts: (phoneNumberId: string, contacts: { phone: string; name?: string; action?: 'add' | 'remove' }[]) =>
      post('/_simulate/coexistence/contacts', { phone_number_id: phoneNumberId, contacts }),
    /** The business goes back to the app alone: `account_update` PARTNER_REMOVED; its sends answer 133010 from then on. */
    coexistenceOffboard: (phoneNumberId: string) => post('/_simulate/coexistence/offboard', { phone_number_id: phoneNumberId }),
    /** While held, group creations get no `group_lifecycle_update`; releasing completes the held ones at once. */
    holdGroupCreation: (hold: boolean): Promise<{ ok: boolean; hold: boolean; released: { request_id: string; delivered_status: number | null }[] }> =>
      post('/_simulate/groups/hold-creation', { hold }),
    /** A customer opens the group's invite link: joins (`auto_approve`) or asks to (`approval_required`: `join_request_id`). */
    groupJoin: (groupId: string, waId: string, name?: string): Promise<{ ok: boolean; joined: boolean; join_request_id?: string }> =>
      post(`/_simulate/groups/${encodeURIComponent(groupId)}/join`, { wa_id: waId, ...(name !== undefined && { name }) }),
    /** A participant leaves the group (or withdraws an open join request). */
    groupLeave: (groupId: string, waId: string) => post(`/_simulate/groups/${encodeURIComponent(groupId)}/leave`, { wa_id: waId }),
    /** A participant's text message to the group reaches the business. */
    groupMessage: (groupId: string, from: string, text: string): Promise<{ ok: boolean; wamid: string }> =>
      post(`/_simulate/groups/${encodeURIComponent(groupId)}/messages`, { from, text }),
    /** The platform suspends the group, or clears the suspension (`group_status_update`). */
    groupSuspend: (groupId: string, suspended: boolean) => post(`/_simulate/groups/${encodeURIComponent(groupId)}/suspend`, { suspended }),
    /** The number's groups as the simulator keeps them (deleted ones too), with participants and open join requests. */
    groups: async (
      phoneNumberId: string,
    ): Promise<
      {
        id: string;
        subject: string;
        invite_link: string;
        participants: { wa_id: string }[];
        join_requests: { join_request_id: string; wa_id: string }[];
        suspended: boolean;
        deleted: boolean;
      }[]
    > => (await json(`/_simulate/groups?phone_number_id=${phoneNumberId}`)).data,
  };
}
