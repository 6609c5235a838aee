import type { Pagination } from '#shared/pagination';

/** What a handler returns; the envelope middleware adds `success` and `request_id`. */
export interface HttpResult {
  status: number;
  data: unknown;
  /** Answer this body as it is instead of the JSON envelope: plain text unless `headers` give a Content-Type. */
  text?: string;
  /** Answer these bytes (base64), already compressed, instead of the JSON envelope: `headers` give their Content-Type and Content-Encoding. */
  gzippedBase64?: string;
  pagination?: Pagination;
  headers?: Record<string, string>;
}

export const ok = (data: unknown, extra: Omit<HttpResult, 'status' | 'data'> = {}): HttpResult => ({ status: 200, data, ...extra });
export const created = (data: unknown): HttpResult => ({ status: 201, data });
export const accepted = (data: unknown): HttpResult => ({ status: 202, data });
export const plainText = (text: string): HttpResult => ({ status: 200, data: null, text });
