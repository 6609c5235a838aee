import { JSON_LIMITS, jsonBytes, jsonValueProblem } from '#shared/bounded-json';
import { errors, type ErrorDetail } from '#shared/errors';
import type { FlowContent } from '#shared/platform/payloads/flow';

const field = (name: string) => `interactive.${name}`;

/**
 * The rules of a flow message across its fields (contract §21, docs/decisions.md "Flows"), each
 * broken one a `details` entry of a 422 `validation_error`: a `flow_token` (the platform would
 * send "unused", and the answers could not be told apart), exactly one of `flow_id` and
 * `flow_name`, a first screen and data only to `navigate`, and data the message can keep.
 */
export function flowProblems(flow: FlowContent): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (flow.flow_token === undefined)
    problems.push({ field: field('flow_token'), message: "Required: the flow's answers come back with it, to tell them apart" });
  if ((flow.flow_id === undefined) === (flow.flow_name === undefined))
    problems.push({ field: field('flow_id'), message: 'Exactly one of flow_id and flow_name is required' });
  if (flow.flow_action === 'data_exchange') {
    for (const name of ['screen', 'data'] as const)
      if (flow[name] !== undefined) problems.push({ field: field(name), message: 'Only with flow_action navigate: the endpoint chooses the first screen' });
  }
  if (flow.data !== undefined) {
    const problem =
      Object.keys(flow.data).length === 0
        ? 'Must not be empty (leave it out instead)'
        : jsonBytes(flow.data) > JSON_LIMITS.maxBytes
          ? `Must be at most ${JSON_LIMITS.maxBytes} bytes as JSON`
          : jsonValueProblem(flow.data, JSON_LIMITS.maxDepth - 1);
    if (problem) problems.push({ field: field('data'), message: problem });
  }
  return problems;
}

/** Refuses a flow message that breaks its rules, before anything is stored or sent. */
export function requireValidFlow(flow: FlowContent): void {
  const problems = flowProblems(flow);
  if (problems.length) throw errors.unprocessable(problems);
}
