import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

/**
 * Reading the synthesized templates: a stack's template (nested ones too), a construct's logical id,
 * and values as CloudFormation resolves them across the nested stacks and the stacks' exports. The
 * CDK tests assert on them; the local stack reads each function's role and environment with them
 * (local/iam/template-model.ts).
 */

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string; Metadata?: Record<string, any> };
export interface CfnTemplate {
  Resources: Record<string, Resource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}

const synthesized = new WeakMap<Stack, CfnTemplate>();

/** A stack's template, top-level or nested (synthesized once per app). */
export function templateOf(stack: Stack): CfnTemplate {
  if (!synthesized.has(stack)) synthesized.set(stack, Template.fromStack(stack).toJSON() as CfnTemplate);
  return synthesized.get(stack)!;
}

/** The logical id of a construct's resource, in its own stack's template. */
export const logicalIdOf = (construct: IConstruct) => Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);

/** The stacks nested directly in `stack`. */
export const nestedStacksOf = (stack: Stack) => stack.node.findAll().filter((c): c is Stack => Stack.isStack(c) && c.nestedStackParent === stack);
/** The logical id, in its parent, of the resource that deploys a nested stack. */
export const nestedStackResourceId = (nested: Stack) => nested.nestedStackParent!.getLogicalId(nested.nestedStackResource as CfnElement);

/**
 * A value of `stack`'s template as CloudFormation resolves it across stacks: a nested stack's
 * parameter is what its parent passes, `Fn::GetAtt: [<nested stack>, Outputs.<name>]` is what
 * that nested stack outputs, and with `imports`, `Fn::ImportValue` is the exporting stack's value.
 * What remains refers to resources by their logical ids, in whichever stack they are.
 */
export function resolveIn(stack: Stack, value: any, options: { imports: boolean }): any {
  if (Array.isArray(value)) return value.map((item) => resolveIn(stack, item, options));
  if (value === null || typeof value !== 'object') return value;
  const [key, ...others] = Object.keys(value);
  if (others.length === 0) {
    const parent = stack.nestedStackParent;
    if (key === 'Ref' && parent && value.Ref in (templateOf(stack).Parameters ?? {})) {
      const passed = templateOf(parent).Resources[nestedStackResourceId(stack)].Properties.Parameters[value.Ref];
      return resolveIn(parent, passed, options);
    }
    if (key === 'Fn::GetAtt' && typeof value[key][1] === 'string' && value[key][1].startsWith('Outputs.')) {
      const nested = nestedStacksOf(stack).find((n) => nestedStackResourceId(n) === value[key][0]);
      if (nested) return resolveIn(nested, templateOf(nested).Outputs![value[key][1].slice('Outputs.'.length)].Value, options);
    }
    if (key === 'Fn::ImportValue' && options.imports) {
      for (const exporter of stack.node.root.node.children.filter(Stack.isStack)) {
        const output = Object.values(templateOf(exporter).Outputs ?? {}).find((o) => o.Export?.Name === value[key]);
        if (output) return resolveIn(exporter, output.Value, options);
      }
    }
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveIn(stack, v, options)]));
}

/**
 * A stack and some of the stacks nested in it as one template, as if they were one stack: the
 * nested stacks' resources (their references to parameters and outputs resolved, imports left as
 * they are) in place of the resources that deploy them. What a test asserts of the whole then
 * holds whichever of these stacks a resource is in. Logical ids must be unique across them.
 */
export function flatTemplate(stack: Stack, nested: Stack[]): CfnTemplate {
  const own = templateOf(stack);
  const replaced = new Set(nested.map(nestedStackResourceId));
  const resources: Record<string, Resource> = {};
  for (const from of [stack, ...nested]) {
    if (from !== stack && from.nestedStackParent !== stack) throw new Error(`${from.node.path} is not nested in ${stack.node.path}`);
    for (const [id, resource] of Object.entries(templateOf(from).Resources)) {
      if (from === stack && replaced.has(id)) continue;
      if (id in resources) throw new Error(`logical id ${id} is in two of the templates flattened`);
      resources[id] = resolveIn(from, resource, { imports: false });
    }
  }
  return { Resources: resources, Parameters: own.Parameters, Outputs: resolveIn(stack, own.Outputs, { imports: false }) };
}
