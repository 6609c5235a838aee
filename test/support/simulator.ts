/** The Graph API simulator's test endpoints, as the tests drive them. */
export function simulatorControl(url: () => string) {
  const json = async (path: string, init?: RequestInit) => (await fetch(`${url()}${path}`, init)).json() as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const post = (path: string, body: unknown) => json(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return {
    /** Send requests the simulator accepted for this number, oldest first. */
    sends: async (to: string): Promise<{ wamid: string; to: string; request: Record<string, unknown> }[]> => (await json(`/_simulate/messages?to=${to}`)).data,
    faults: (settings: Record<string, unknown>) => post('/_simulate/faults', settings),
    resetFaults: () => json('/_simulate/faults', { method: 'DELETE' }),
    inbound: (body: { phone_number_id: string; from: string; text: string; name?: string }) => post('/_simulate/inbound', body),
  };
}
