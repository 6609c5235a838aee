import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The content of a file of an npm package that an operation declares in `packageFiles`
 * (shared/service/operation.ts). In Lambda the CDK stack copied it beside the bundle; locally it
 * is read where npm installed it.
 */
export function readPackageFile(specifier: string): string {
  const besideBundle = join(__dirname, basename(specifier));
  return readFileSync(existsSync(besideBundle) ? besideBundle : require.resolve(specifier), 'utf8');
}
