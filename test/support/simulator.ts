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
  };
}
