import { batchWrite } from '#shared/data/table/batch-write';

type Item = Record<string, unknown>;

/**
 * Unconditional puts made within `windowMs` of each other go out together, as one
 * BatchWriteItem per 25 items: the jobs of one queue batch run side by side and each writes its
 * own item at about the same moment (issue 29: one call per job before). Items are unconditional
 * puts of whole items: of two puts of one key, the later is written. Each caller's promise settles
 * when the batch holding its item is written, so what it writes next still comes after.
 */
export function coalescedPuts(windowMs: number): (item: Item) => Promise<void> {
  let pending: Item[] | undefined;
  let written: Promise<void> = Promise.resolve();
  return (item) => {
    if (!pending) {
      const items: Item[] = [];
      pending = items;
      written = new Promise((resolve) => setTimeout(resolve, windowMs)).then(() => {
        pending = undefined;
        // Two writers of one item (the send worker and a report racing it) put it twice: BatchWriteItem refuses a key twice.
        const distinct = [...new Map(items.map((item) => [`${item.PK}|${item.SK}`, item])).values()];
        return batchWrite(distinct.map((Item) => ({ PutRequest: { Item } })));
      });
    }
    pending.push(item);
    return written;
  };
}
