import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(__dirname, '../..');
const schemaModules = readdirSync(resolve(root, 'shared/schemas')).filter((file) => file.endsWith('.ts'));

/**
 * Request schemas are reached by their handlers and by an API description generator alike, so a
 * schema module must load without handler code, the HTTP layer, table access or the AWS SDK.
 */
describe('request schema modules', () => {
  it('exist for each resource', () => {
    expect(schemaModules.sort()).toEqual([
      'calls.ts',
      'campaigns.ts',
      'chat-groups.ts',
      'common.ts',
      'contacts.ts',
      'events.ts',
      'groups.ts',
      'keys.ts',
      'messages.ts',
      'numbers.ts',
      'operator.ts',
      'subscriber-webhooks.ts',
      'templates.ts',
      'usage.ts',
    ]);
  });

  it.each(schemaModules)('%s loads without handler, HTTP, data or SDK code', async (file) => {
    const { metafile } = await build({
      entryPoints: [resolve(root, 'shared/schemas', file)],
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      write: false,
      metafile: true,
      logLevel: 'error',
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => /^(functions\/|shared\/http\/|shared\/data\/|node_modules\/@aws-sdk\/)/.test(input))).toEqual([]);
    expect(inputs).toContain(`shared/schemas/${file}`);
  });
});
