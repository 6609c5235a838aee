import { VERSION, type Route } from '#simulator/router';
import { getCallPermissions } from '#simulator/routes/call-permissions';
import { getSettings, updateSettings } from '#simulator/routes/call-settings';
import { callAction } from '#simulator/routes/calls';
import {
  getSimulatedCallSettings,
  listCallRequests,
  listCallStates,
  simulateAnswerCall,
  simulateHangUp,
  simulateIncomingCall,
  simulatePermissionReply,
} from '#simulator/routes/simulate-calls';
import { simulateContacts, simulateEcho, simulateHistory, simulateOffboard } from '#simulator/routes/simulate-coexistence';
import { requestAppData } from '#simulator/routes/smb-app-data';
import type { SimulatorState } from '#simulator/state';

const graphPath = (rest: string) => new RegExp(String.raw`^/(?<version>${VERSION})/${rest}/?$`);
const simulatePath = (rest: string) => new RegExp(String.raw`^/_simulate/${rest}/?$`);

/** The Calling API (docs/platform-calling.md) and its `/_simulate/…` controls, registered in `routesFor` (simulator/server.ts). */
export const callingRoutes = (state: SimulatorState): Route[] => [
  { method: 'GET', path: graphPath('(?<phoneNumberId>[^/]+)/settings'), auth: true, handle: getSettings(state) },
  { method: 'POST', path: graphPath('(?<phoneNumberId>[^/]+)/settings'), auth: true, handle: updateSettings(state) },
  { method: 'GET', path: graphPath('(?<phoneNumberId>[^/]+)/call_permissions'), auth: true, handle: getCallPermissions(state) },
  { method: 'POST', path: graphPath('(?<phoneNumberId>[^/]+)/calls'), auth: true, handle: callAction(state) },
  { method: 'POST', path: simulatePath('calls/incoming'), auth: false, handle: simulateIncomingCall(state) },
  { method: 'POST', path: simulatePath('calls/(?<callId>[^/]+)/hangup'), auth: false, handle: simulateHangUp(state) },
  { method: 'POST', path: simulatePath('calls/(?<callId>[^/]+)/answer'), auth: false, handle: simulateAnswerCall(state) },
  { method: 'GET', path: simulatePath('calls'), auth: false, handle: listCallRequests(state) },
  { method: 'GET', path: simulatePath('call-states'), auth: false, handle: listCallStates(state) },
  { method: 'GET', path: simulatePath('call-settings'), auth: false, handle: getSimulatedCallSettings(state) },
  { method: 'POST', path: simulatePath('call-permissions/reply'), auth: false, handle: simulatePermissionReply(state) },
];

/** Coexistence with the WhatsApp Business app (docs/platform-coexistence.md) and its `/_simulate/coexistence/…` controls. */
export const coexistenceRoutes = (state: SimulatorState): Route[] => [
  { method: 'POST', path: graphPath('(?<phoneNumberId>[^/]+)/smb_app_data'), auth: true, handle: requestAppData(state) },
  { method: 'POST', path: simulatePath('coexistence/echo'), auth: false, handle: simulateEcho(state) },
  { method: 'POST', path: simulatePath('coexistence/history'), auth: false, handle: simulateHistory(state) },
  { method: 'POST', path: simulatePath('coexistence/contacts'), auth: false, handle: simulateContacts(state) },
  { method: 'POST', path: simulatePath('coexistence/offboard'), auth: false, handle: simulateOffboard(state) },
];
