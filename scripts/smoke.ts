/**
 * `npm run smoke -- --url <ApiUrl> --key <key> [--to <number>] [--template T --language L] [--webhook-url U]`:
 * checks a deployment (or `npm start`) as its user would, one line per check, and exits 1 when
 * any failed (docs/deploy.md, "Check it").
 */
import { parseArgs } from 'node:util';
import { runSmoke } from './smoke-checks';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    to: { type: 'string' },
    template: { type: 'string' },
    language: { type: 'string' },
    'webhook-url': { type: 'string' },
  },
});

if (!values.url || !values.key) {
  console.error('usage: npm run smoke -- --url <ApiUrl> --key <API key> [--to <number>] [--template <name> --language <code>] [--webhook-url <url>]');
  process.exit(2);
}

async function main(): Promise<number> {
  const results = await runSmoke({
    url: values.url!,
    key: values.key!,
    to: values.to,
    template: values.template,
    language: values.language,
    webhookUrl: values['webhook-url'],
  });
  for (const result of results) console.log(`${result.ok ? 'ok  ' : 'FAIL'}  ${result.name.padEnd(13)}  ${result.detail}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(failed ? `${failed} of ${results.length} checks failed` : `${results.length} checks passed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
