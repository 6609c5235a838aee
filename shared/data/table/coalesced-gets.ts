import { getMany } from '#shared/data/table/pages';

type Key = { PK: string; SK: string };
type Item = Record<string, unknown>;

const idOf = (key: { PK: unknown; SK: unknown }) => `${key.PK}|${key.SK}`;

/**
 * Reads by key asked within `windowMs` of each other go out together, as one BatchGetItem per
 * 100 distinct keys (issue 29: a call each before). A window of 0 gathers the reads asked in the
 * same turn of the event loop (those a request starts side by side), sent before the next one
 * polls for I/O; a longer window gathers the jobs of one queue batch, which start a moment apart.
 * Each caller gets the items of its own keys that exist, in the order of its keys.
 */
export function coalescedGets(options: { windowMs: number; consistent: boolean }): (keys: Key[]) => Promise<Item[]> {
  const { windowMs, consistent } = options;
  const gathered = () => new Promise<void>((resolve) => (windowMs ? setTimeout(resolve, windowMs) : setImmediate(resolve)));
  let pending: Key[] | undefined;
  let read: Promise<Map<string, Item>> = Promise.resolve(new Map<string, Item>());
  return async (keys) => {
    if (!pending) {
      const asked: Key[] = [];
      pending = asked;
      read = gathered().then(async () => {
        pending = undefined;
        // Callers may ask for the same key (the jobs of one campaign, its campaign item): BatchGetItem refuses a key twice.
        const distinct = [...new Map(asked.map((key) => [idOf(key), key])).values()];
        return new Map<string, Item>((await getMany<Key & Item>(distinct, consistent)).map((item) => [idOf(item), item]));
      });
    }
    pending.push(...keys);
    const found = await read;
    return keys.flatMap((key): Item[] => {
      const item = found.get(idOf(key));
      return item ? [item] : [];
    });
  };
}

/**
 * Eventually consistent reads a request asks side by side, such as POST /messages's template and
 * its recipient's opt-out: one call where they were two, on the same critical path. Marked pure,
 * so a bundle that never reads side by side leaves it, and the batch read it brings, out.
 */
export const readSideBySide = /* @__PURE__ */ coalescedGets({ windowMs: 0, consistent: false });
