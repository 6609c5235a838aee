import { getMany } from '#shared/data/table/pages';

type Key = { PK: string; SK: string };
type Item = Record<string, unknown>;

const idOf = (key: { PK: unknown; SK: unknown }) => `${key.PK}|${key.SK}`;

/**
 * Strongly consistent reads by key asked within `windowMs` of each other go out together, as one
 * BatchGetItem per 100 distinct keys: the jobs of one queue batch start side by side and each
 * reads its own items first (issue 29: one call per job before). Each caller gets the items of
 * its own keys that exist, in the order of its keys.
 */
export function coalescedGets(windowMs: number): (keys: Key[]) => Promise<Item[]> {
  let pending: Key[] | undefined;
  let read: Promise<Map<string, Item>> = Promise.resolve(new Map<string, Item>());
  return async (keys) => {
    if (!pending) {
      const asked: Key[] = [];
      pending = asked;
      read = new Promise((resolve) => setTimeout(resolve, windowMs)).then(async () => {
        pending = undefined;
        // Jobs of one campaign ask for the same campaign and pause items: BatchGetItem refuses a key twice.
        const distinct = [...new Map(asked.map((key) => [idOf(key), key])).values()];
        return new Map<string, Item>((await getMany<Key & Item>(distinct, true)).map((item) => [idOf(item), item]));
      });
    }
    pending.push(...keys);
    const batch = read;
    const found = await batch;
    return keys.flatMap((key): Item[] => {
      const item = found.get(idOf(key));
      return item ? [item] : [];
    });
  };
}
