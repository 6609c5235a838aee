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
    registerMedia: (body: { id: string; mime_type?: string; data_base64?: string; download?: 'ok' | 'not_found' | 'timeout' }) =>
      post('/_simulate/media', body),
  };
}
