import { batchWrite } from '#shared/data/table/batch-write';
import { newId } from '#shared/ids';
import { median, timed, type BenchContext, type Figure } from './harness';

const CONTACTS = 500;
const RUNS = 3;
/** Untimed imports first: a fresh stack's DynamoDB Local (a JVM) runs its first transactions at a fraction of its warm speed. */
const WARMUP_RUNS = 2;

/** Each run imports into a fresh workspace, so the same numbers are new every time. */
const contactsPayload = () =>
  Array.from({ length: CONTACTS }, (_, i) => ({
    phone: `+1415555${1000 + i}`,
    name: `Contact ${i}`,
    tags: i % 3 ? ['bench'] : [],
  }));

/** POST /contacts/bulk with 500 new contacts, against writing the same items (claim + contact) with BatchWriteItem directly. */
export async function benchBulkImport(ctx: BenchContext): Promise<Figure[]> {
  const api: number[] = [];
  const raw: number[] = [];
  const searchable: number[] = [];
  for (let run = -WARMUP_RUNS; run < RUNS; run++) {
    const ws = await ctx.workspace();
    const { ms, result } = await timed(() => ctx.call('POST', '/api/v1/contacts/bulk', ws.key, { contacts: contactsPayload() }));
    if (result.status !== 200 || result.body.data.processed_count !== CONTACTS)
      throw new Error(`bulk import failed: ${JSON.stringify(result.body).slice(0, 300)}`);
    // Search entries follow from the table's stream (docs/data-model.md, "Search at scale"): the time until search finds them all.
    const started = Date.now();
    for (;;) {
      const found = await ctx.call('GET', '/api/v1/contacts?search=contact&pageSize=1', ws.key);
      if (found.body.pagination.totalCount === CONTACTS) break;
      if (Date.now() - started > 60_000) throw new Error(`search found ${found.body.pagination.totalCount} of ${CONTACTS} imported contacts after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const searchMs = Date.now() - started;
    const items = Array.from({ length: CONTACTS * 2 }, (_, i) => ({ PutRequest: { Item: { PK: `BENCH#${newId()}`, SK: 'X', n: i, name: `Contact ${i}` } } }));
    const rawMs = (await timed(() => batchWrite(items))).ms;
    if (run < 0) continue;
    api.push(ms);
    searchable.push(searchMs);
    raw.push(rawMs);
  }
  return [
    {
      name: `bulk import of ${CONTACTS} new contacts (median of ${RUNS})`,
      value: median(api),
      unit: 'ms',
      baseline: { name: `BatchWriteItem of ${CONTACTS * 2} items`, value: median(raw) },
      budget: { max: 2000, of: 'value' },
      note: `runs ${api.map(Math.round).join(', ')} ms, after ${WARMUP_RUNS} untimed imports`,
    },
    {
      name: `bulk import: all ${CONTACTS} found by search, after the import's answer (median of ${RUNS})`,
      value: median(searchable),
      unit: 'ms',
      note: 'no budget: the stream indexes them, polled four times a second locally',
    },
  ];
}
