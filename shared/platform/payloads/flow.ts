/**
 * A flow message (`interactive.type: "flow"`) as our API takes it, and the platform's action for it
 * (Meta, "Sending a Flow"; M-openapi `InteractiveObject`, docs/platform-requests.md §4.3).
 */
export interface FlowContent {
  type: 'flow';
  flow_id?: string;
  flow_name?: string;
  flow_cta: string;
  flow_token?: string;
  flow_action?: 'navigate' | 'data_exchange';
  /** The first screen (`navigate` only); the platform's default is its entry screen. */
  screen?: string;
  /** The first screen's input (`navigate` only): a non-empty object. */
  data?: Record<string, unknown>;
  flow_message_version?: '3';
  mode?: 'draft' | 'published';
}

/** The only version of flow messages the platform takes. */
export const FLOW_MESSAGE_VERSION = '3';

/** `action: { name: "flow", parameters }`, with `flow_action_payload` only when a screen or data is given. */
export function flowAction(content: FlowContent) {
  const payload = content.screen !== undefined || content.data !== undefined;
  return {
    name: 'flow',
    parameters: {
      flow_message_version: content.flow_message_version ?? FLOW_MESSAGE_VERSION,
      ...(content.flow_id !== undefined ? { flow_id: content.flow_id } : { flow_name: content.flow_name }),
      flow_cta: content.flow_cta,
      ...(content.flow_token !== undefined && { flow_token: content.flow_token }),
      ...(content.mode && { mode: content.mode }),
      ...(content.flow_action && { flow_action: content.flow_action }),
      ...(payload && {
        flow_action_payload: { ...(content.screen !== undefined && { screen: content.screen }), ...(content.data !== undefined && { data: content.data }) },
      }),
    },
  };
}
