import { graphErrors } from '#simulator/graph-error';

/** Graph's cursor-paged list: `{ data, paging: { cursors: { before, after }, previous?, next? } }`. */
export interface GraphPage<T> {
  data: T[];
  paging?: { cursors: { before: string; after: string }; previous?: string; next?: string };
}

/** Cursors are opaque base64 strings naming an item by its id. */
export const encodeCursor = (id: string): string => Buffer.from(`id:${id}`).toString('base64url');

function cursorIndex(items: readonly { id: string }[], cursor: string, name: string): number {
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const index = decoded.startsWith('id:') ? items.findIndex((item) => item.id === decoded.slice(3)) : -1;
  if (index < 0) throw graphErrors.invalidParameter(`Invalid ${name} cursor`);
  return index;
}

/** A list's page sizes: what a request without `limit` gets, and the most any request gets. */
export interface PageSizes {
  defaultLimit: number;
  maxLimit: number;
}

function parseLimit(raw: string | null, sizes: PageSizes): number {
  if (raw === null || raw === '') return sizes.defaultLimit;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1) throw graphErrors.invalidParameter('Param limit must be a positive integer');
  return Math.min(limit, sizes.maxLimit);
}

/**
 * One page of `items` as selected by the `limit`, `after` and `before` query parameters of `url`.
 * `previous` / `next` are absolute links to the neighbouring pages (same path and other parameters,
 * so an `access_token` given in the query carries over, as on Graph) and appear only when those pages exist.
 */
export function paginate<T extends { id: string }>(items: readonly T[], url: URL, sizes: PageSizes): GraphPage<T> {
  const { start, end } = pageBounds(items, url, sizes);
  const data = items.slice(start, end);
  if (data.length === 0) return { data };

  const cursors = { before: encodeCursor(data[0].id), after: encodeCursor(data[data.length - 1].id) };
  return {
    data,
    paging: {
      cursors,
      ...(start > 0 && { previous: linkTo(url, 'before', cursors.before, sizes) }),
      ...(end < items.length && { next: linkTo(url, 'after', cursors.after, sizes) }),
    },
  };
}

/** The half-open index range `[start, end)` that `limit` plus `after` (or else `before`) select. */
function pageBounds(items: readonly { id: string }[], url: URL, sizes: PageSizes): { start: number; end: number } {
  const limit = parseLimit(url.searchParams.get('limit'), sizes);
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  if (after) {
    const start = cursorIndex(items, after, 'after') + 1;
    return { start, end: Math.min(items.length, start + limit) };
  }
  if (before) {
    const end = cursorIndex(items, before, 'before');
    return { start: Math.max(0, end - limit), end };
  }
  return { start: 0, end: Math.min(items.length, limit) };
}

function linkTo(url: URL, param: 'before' | 'after', cursor: string, sizes: PageSizes): string {
  const link = new URL(url);
  link.searchParams.delete('before');
  link.searchParams.delete('after');
  link.searchParams.set('limit', String(parseLimit(url.searchParams.get('limit'), sizes)));
  link.searchParams.set(param, cursor);
  return link.toString();
}
