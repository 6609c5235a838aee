import { QueryCommand, type QueryCommandInput } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';

type Key = Record<string, unknown>;
/** Per source: where the next page starts (null: at the beginning), or 'done' when it is used up. */
export type Positions = (Key | null | 'done')[];

interface Source {
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>;
  buffer: Record<string, unknown>[];
  next: Key | undefined | 'done';
  /** Where a cursor resumes this source: after the last item taken from it. */
  resume: Key | null | 'done';
}

const MAX_PAGE = 200;

export interface MergeOptions {
  skip: number;
  take: number;
  from?: Positions;
  /** Turns index entries into the items listed (read by key), in order. Without `keep`, only the page returned is hydrated. */
  hydrate?: (entries: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>;
  /** A filter on hydrated items (what the index cannot evaluate): every page read is hydrated and filtered before the merge. */
  keep?: (item: Record<string, unknown>) => boolean;
}

/**
 * Entries read per query page. Unfiltered, no source needs more than the window plus one look-ahead
 * entry; a filter may drop most of what is read, so filtered pages read the maximum.
 */
const pageLimit = (input: Source['input'], options: MergeOptions) =>
  input.FilterExpression || options.keep ? MAX_PAGE : Math.min(MAX_PAGE, options.skip + options.take + 1);

/**
 * Reads several descending queries (the shards of one list) as one list ordered by `sortKey`,
 * newest first: skips `skip` items, returns `take`, and the positions to resume from. An item
 * is taken only when every source that is not used up has one buffered, so the order is exact
 * even when filters leave some pages empty.
 */
export async function mergedQuery(
  inputs: Source['input'][],
  keyOf: (item: Record<string, unknown>) => Key,
  sortKey: string,
  options: MergeOptions,
): Promise<{ items: Record<string, unknown>[]; positions: Positions | null }> {
  const wanted = options.skip + options.take;
  const sources: Source[] = inputs.map((input, i) => {
    const start = options.from?.[i] ?? null;
    return { input, buffer: [], next: start === null ? undefined : start, resume: start };
  });
  const { hydrate, keep } = options;
  /** With `keep`, a page is hydrated and filtered before it joins the merge. */
  const admit = async (entries: Record<string, unknown>[]) => {
    if (!keep || !entries.length) return entries;
    return (hydrate ? await hydrate(entries) : entries).filter(keep);
  };
  const refill = async () => {
    for (
      let empty = sources.filter((s) => !s.buffer.length && s.next !== 'done');
      empty.length;
      empty = empty.filter((s) => !s.buffer.length && s.next !== 'done')
    ) {
      await Promise.all(
        empty.map(async (s) => {
          const page = await db().send(
            new QueryCommand({ ...s.input, TableName: tableName(), ExclusiveStartKey: s.next as Key | undefined, Limit: pageLimit(s.input, options) }),
          );
          s.buffer.push(...(await admit(page.Items ?? [])));
          s.next = page.LastEvaluatedKey ?? 'done';
        }),
      );
    }
  };
  const items: Record<string, unknown>[] = [];
  while (items.length < wanted) {
    await refill();
    const ready = sources.filter((s) => s.buffer.length);
    if (!ready.length) break;
    const newest = ready.reduce((best, s) => (String(s.buffer[0][sortKey]) > String(best.buffer[0][sortKey]) ? s : best));
    const item = newest.buffer.shift()!;
    newest.resume = keyOf(item);
    items.push(item);
  }
  const page = items.slice(options.skip);
  const hydrateAfterMerge = hydrate && !keep && page.length ? hydrate : undefined;
  // Whether anything follows: look ahead so a last full page does not claim more.
  const [listed] = await Promise.all([hydrateAfterMerge ? hydrateAfterMerge(page) : page, refill()]);
  for (const s of sources) if (!s.buffer.length && s.next === 'done') s.resume = 'done';
  const more = sources.some((s) => s.buffer.length);
  return { items: listed, positions: more ? sources.map((s) => s.resume) : null };
}
