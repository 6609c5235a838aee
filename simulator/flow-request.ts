import { whatsappErrors } from '#simulator/whatsapp-errors';

const invalid = whatsappErrors.invalidParameter;
const notValid = whatsappErrors.parameterValueNotValid;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const WHERE = "interactive['action']['parameters']";

function optionalString(parameters: Record<string, unknown>, field: string): string | undefined {
  const value = parameters[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`Param ${WHERE}['${field}'] must be a non-empty string.`);
  return value;
}

function oneOf(parameters: Record<string, unknown>, field: string, allowed: string[]): void {
  const value = parameters[field];
  if (value !== undefined && !allowed.includes(value as string)) throw invalid(`Param ${WHERE}['${field}'] must be one of {${allowed.join(', ')}}.`);
}

/**
 * The action of a flow message (`interactive.type: "flow"`), checked as the platform documents it
 * (M-openapi `InteractiveObject`; Meta, "Sending a Flow"): `name: "flow"`, `flow_message_version`
 * "3", `flow_cta` (30 characters at most), exactly one of `flow_id` and `flow_name`, `mode` and
 * `flow_action` from their lists, and `flow_action_payload` (a `screen`, non-empty `data`) only
 * to navigate. Missing or malformed fields are 100, values outside the limits 131009.
 */
export function checkFlowAction(action: Record<string, unknown>): void {
  if (action.name !== 'flow') throw invalid("Param interactive['action']['name'] must be \"flow\".");
  const parameters = action.parameters;
  if (!isObject(parameters)) throw invalid(`The parameter ${WHERE} is required.`);
  if (parameters.flow_message_version !== '3') throw invalid(`Param ${WHERE}['flow_message_version'] must be "3".`);
  const cta = optionalString(parameters, 'flow_cta');
  if (cta === undefined) throw invalid(`The parameter ${WHERE}['flow_cta'] is required.`);
  if (cta.length > 30) throw notValid(`${WHERE}['flow_cta'] length invalid. Max length: 30.`);
  const id = optionalString(parameters, 'flow_id');
  const name = optionalString(parameters, 'flow_name');
  if ((id === undefined) === (name === undefined)) throw invalid(`Exactly one of ${WHERE}['flow_id'] and ${WHERE}['flow_name'] is required.`);
  optionalString(parameters, 'flow_token');
  oneOf(parameters, 'mode', ['draft', 'published']);
  oneOf(parameters, 'flow_action', ['navigate', 'data_exchange']);
  const payload = parameters.flow_action_payload;
  if (payload === undefined) return;
  if (parameters.flow_action === 'data_exchange') throw invalid(`Param ${WHERE}['flow_action_payload'] must be omitted with flow_action data_exchange.`);
  if (!isObject(payload)) throw invalid(`Param ${WHERE}['flow_action_payload'] must be an object.`);
  optionalString(payload, 'screen');
  if (payload.data !== undefined && (!isObject(payload.data) || !Object.keys(payload.data).length))
    throw notValid(`${WHERE}['flow_action_payload']['data'] must be a non-empty object.`);
}
