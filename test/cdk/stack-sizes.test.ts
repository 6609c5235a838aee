import fs from 'node:fs';
import path from 'node:path';
import { areas } from '#lib/areas';
import { buildTestApp } from './synth-app';
import type { CfnTemplate } from './templates';

/**
 * CloudFormation refuses a template of more than 500 resources, and every HTTP operation adds about
 * 7 (function, role, policy, log group, route, integration, permission). At 400 a stack still has
 * room for about 14 more operations: the area that reaches it is split (lib/areas.ts) before a
 * deployment fails. Nested stacks count on their own: each is a template of its own.
 */
const MAX_RESOURCES = 400;
/** CloudFormation allows 200 parameters and 200 outputs per template; a margin keeps growth visible. */
const MAX_PARAMETERS = 150;
const MAX_OUTPUTS = 150;

interface DeployedStack {
  name: string;
  template: CfnTemplate;
}

const readJson = <T = any>(directory: string, file: string): T => JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));

/**
 * The stacks nested in `parent`, from the cloud assembly: a nested stack's template is a file asset
 * of its parent, which deploys it from the object key at the end of its TemplateURL.
 */
function nestedIn(directory: string, assetManifest: string, parent: DeployedStack): DeployedStack[] {
  const files = Object.values(
    readJson<{ files: Record<string, { source: { path: string }; destinations: Record<string, { objectKey: string }> }> }>(directory, assetManifest).files,
  );
  return Object.entries(parent.template.Resources)
    .filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack')
    .flatMap(([id, r]) => {
      const objectKey = (r.Properties.TemplateURL['Fn::Join'][1] as unknown[]).at(-1) as string;
      const asset = files.find((file) => Object.values(file.destinations).some((d) => `/${d.objectKey}` === objectKey));
      if (!asset) throw new Error(`${parent.name}: no asset for the template of ${id}`);
      // <id>NestedStack<id>NestedStackResource<hash>: the nested stack's construct id.
      const nested = {
        name: `${parent.name}/${/^(\w+?)NestedStack\1NestedStackResource/.exec(id)?.[1] ?? id}`,
        template: readJson(directory, asset.source.path),
      };
      return [nested, ...nestedIn(directory, assetManifest, nested)];
    });
}

const { app } = buildTestApp();
const assembly = app.synth();
const manifest = readJson<{ artifacts: Record<string, { type: string; properties?: { templateFile?: string } }> }>(assembly.directory, 'manifest.json');
const stacks: DeployedStack[] = Object.entries(manifest.artifacts)
  .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
  .flatMap(([id, artifact]) => {
    const stack = { name: id, template: readJson(assembly.directory, artifact.properties!.templateFile!) };
    return [stack, ...nestedIn(assembly.directory, `${id}.assets.json`, stack)];
  });
const count = (section?: Record<string, unknown>) => Object.keys(section ?? {}).length;

describe('stack sizes', () => {
  beforeAll(() => {
    const lines = stacks.map(
      (s) =>
        `${s.name.padEnd(36)} ${String(count(s.template.Resources)).padStart(4)} resources ${String(count(s.template.Parameters)).padStart(4)} parameters ${String(count(s.template.Outputs)).padStart(4)} outputs`,
    );
    console.log(`Resources per stack (at most ${MAX_RESOURCES}):\n${lines.join('\n')}`);
  });

  test('every stack is counted: data, compute, and in compute one per area and the monitoring', () => {
    expect(stacks.map((s) => s.name).sort()).toEqual(
      [
        'MessagingApi-Data',
        'MessagingApi-Compute',
        'MessagingApi-Compute/Monitoring',
        ...Object.keys(areas).map((area) => `MessagingApi-Compute/${area}`),
      ].sort(),
    );
    // Every nested template of the assembly is one of them.
    const nestedTemplates = fs.readdirSync(assembly.directory).filter((file) => file.endsWith('.nested.template.json'));
    expect(nestedTemplates).toHaveLength(stacks.length - 2);
  });

  test.each(stacks.map((s) => [s.name, count(s.template.Resources)]))(`%s has %d resources, at most ${MAX_RESOURCES}`, (_name, resources) => {
    expect(resources).toBeLessThanOrEqual(MAX_RESOURCES);
  });

  test.each(stacks.map((s) => [s.name, count(s.template.Parameters), count(s.template.Outputs)]))(
    '%s has %d parameters and %d outputs, well under 200 each',
    (_name, parameters, outputs) => {
      expect(parameters).toBeLessThan(MAX_PARAMETERS);
      expect(outputs).toBeLessThan(MAX_OUTPUTS);
    },
  );
});
