import { CALL_PERMISSION_REQUEST } from '#simulator/call-permission-request';
import { callingErrors } from '#simulator/calling-errors';
import type { SendRequest } from '#simulator/message-request';
import type { SimulatorState } from '#simulator/state';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A send of a call permission request, once its body is valid: the number must have calling
 * enabled (138000); a permanent permission already granted is 138017; past 1 request in 24 hours
 * or 2 in 7 days to this customer, 138009 (reset by a connected call). An accepted one is counted.
 */
export function countCallPermissionRequest(state: SimulatorState, phoneNumberId: string, request: SendRequest, body: unknown): void {
  if (request.type !== 'interactive' || !isObject(body) || !isObject(body.interactive) || body.interactive.type !== CALL_PERMISSION_REQUEST) return;
  if (!state.callSettings.enabled(phoneNumberId)) throw callingErrors.callingNotEnabled();
  state.callPermissions.request(phoneNumberId, request.waId);
}
