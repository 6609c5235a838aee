/**
 * A media header's example file (contract §18): downloaded from `example.header_url` behind the
 * webhook URLs' guard, or decoded from `example.header_base64`; at most 5 MB and of a type its
 * header format takes; then uploaded to the platform (Resumable Upload API) for the handle its
 * review needs. A file the service cannot use is a 422 on the example's field; nothing is sent.
 */
import { env } from '#shared/config';
import { errors } from '#shared/errors';
import { downloadFromClientUrl } from '#shared/media/url-download';
import { uploadForHandle } from '#shared/platform/resumable-upload';
import { platformSecrets } from '#shared/platform/secrets';
import type { ComponentDefinition } from '#shared/records/template-definition';
import { templateManagementFailure } from '#shared/domain/templates/platform-refusals';

const MAX_EXAMPLE_BYTES = 5 * 1024 * 1024;

/** The types the platform takes for each media header format (Meta, "Template components"). */
const TYPES_OF_FORMAT: Record<string, string[]> = {
  IMAGE: ['image/jpeg', 'image/png'],
  VIDEO: ['video/mp4'],
  DOCUMENT: ['application/pdf'],
};

interface ExampleFile {
  bytes: Uint8Array;
  mimeType: string;
}

const refuse = (field: string, message: string) => errors.unprocessable([{ field, message }]);

function checkedType(format: string, mimeType: string, field: string): string {
  const allowed = TYPES_OF_FORMAT[format] ?? [];
  if (!allowed.includes(mimeType.toLowerCase())) throw refuse(field, `A ${format} header takes ${allowed.join(' or ')}, not ${mimeType || 'an untyped file'}`);
  return mimeType.toLowerCase();
}

async function downloaded(url: string, format: string, at: string): Promise<ExampleFile> {
  const field = `${at}.example.header_url`;
  const download = await downloadFromClientUrl(url, { maxBytes: MAX_EXAMPLE_BYTES, timeoutMs: env.mediaDownloadTimeoutMs });
  if (!download.ok) throw refuse(field, `The example could not be downloaded: ${download.reason}`);
  return { bytes: download.bytes, mimeType: checkedType(format, download.contentType, field) };
}

function decoded(base64: string, mimeType: string, format: string, at: string): ExampleFile {
  const field = `${at}.example.header_base64`;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64.replace(/\s/g, ''))) throw refuse(field, 'Must be base64');
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  if (bytes.length === 0) throw refuse(field, 'The example file is empty');
  if (bytes.length > MAX_EXAMPLE_BYTES) throw refuse(field, `The example file is larger than ${MAX_EXAMPLE_BYTES} bytes`);
  return { bytes, mimeType: checkedType(format, mimeType, `${at}.example.mime_type`) };
}

/** The components' media header, with its position, if they have one. */
function mediaHeader(components: ComponentDefinition[]): { header: ComponentDefinition; at: string } | undefined {
  const index = components.findIndex((c) => c.type === 'HEADER' && c.format !== undefined && c.format in TYPES_OF_FORMAT);
  return index < 0 ? undefined : { header: components[index], at: `components.${index}` };
}

/** The example file of the components' media header, checked; undefined when there is no media header. */
export async function headerExampleFile(components: ComponentDefinition[]): Promise<ExampleFile | undefined> {
  const found = mediaHeader(components);
  if (!found) return undefined;
  const { header, at } = found;
  const { header_url: url, header_base64: base64, mime_type: mimeType } = header.example ?? {};
  if (typeof url === 'string' && url) return downloaded(url, header.format!, at);
  return decoded(String(base64 ?? ''), String(mimeType ?? ''), header.format!, at);
}

/** Uploads the example file for its handle; a failed upload stops the operation with the platform's error. */
export async function uploadedHandle(file: ExampleFile | undefined, token: string, template: { name: string; language: string }): Promise<string | undefined> {
  if (!file) return undefined;
  const { app_id: appId } = await platformSecrets();
  if (!appId) throw errors.refused('platform_error', "The deployment's platform secret has no app_id, which media header uploads need");
  try {
    return await uploadForHandle(appId, token, file);
  } catch (error) {
    return templateManagementFailure(error, 'take the header example', template);
  }
}
