// A campaign's fan-out writes the widened list's partitions 3 s after the widening here (20 s deployed): longer than most lists
// take in a loaded test run, with half the calls held 80 ms (the race below).
const TEST_WIDENING_DELAY_MS = '3000';
process.env.LIST_WIDENING_DELAY_MS = TEST_WIDENING_DELAY_MS;

import { DeleteCommand } from '#shared/data/table/commands';
import { v7 } from 'uuid';
import { db, tableName } from '#shared/data/table/client';
import { getMessage, putNewMessage } from '#shared/data/message';
import { messagesPage } from '#shared/data/message-list';
import { fanoutListShards, widenedList } from '#shared/data/message-list-shards';
import { listShard, MESSAGE_SHARDS } from '#shared/data/message-shard';
import { rateWindowKey } from '#shared/data/rate-window';
import { admit } from '#shared/data/rate-window-admission';
import { newId } from '#shared/ids';
import type { Message } from '#shared/records/message';
import { operations } from '#shared/service/operations';
import { env } from '#shared/config';
import { setRateLimit } from '#shared/domain/workspaces';
import { useTestApi, type TestWorkspace } from '../support/api';

// Through the fault proxy: the race below holds some DynamoDB calls back, as a loaded network does.
const api = useTestApi({ runtime: true, dependencyFaults: true });
const roomy = async () => 10_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const listShardsAdmitted = async (ws: string) => {
  const admission = await admit(ws, roomy);
  if (!admission.admitted) throw new Error('not admitted');
  return admission.listShards;
};

/** A workspace with one message sent through the API, whose item the tests copy under new ids. */
async function workspaceWithMessage(): Promise<{ ws: TestWorkspace; sample: Message }> {
  const ws = await api.workspace('pro');
  // Lists in a loop (the race below) go above the plan's 500 requests/s on a fast machine; set before any request caches the workspace.
  await setRateLimit(ws.id, 10_000);
  await api.call('POST', '/api/v1/templates/sync', { key: ws.key });
  const sent = await send(ws);
  return { ws, sample: (await getMessage(ws.id, sent))! };
}

/** The sample message under a new id, without its item's keys. */
function copyOf(sample: Message, id: string): Message {
  const { PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, ...message } = sample as Message & Record<string, unknown>;
  return { ...message, id };
}

const send = async (ws: TestWorkspace): Promise<string> =>
  (await api.call('POST', '/api/v1/messages', { key: ws.key, body: { to: '+14155550123', template: 'welcome', variables: ['A'] } })).body.data.message_id;

/** Every message id of the workspace's list, newest first, by cursor pages of `pageSize` (from `cursor` when given). */
async function listIds(ws: TestWorkspace, pageSize: number, cursor?: string): Promise<string[]> {
  const ids: string[] = [];
  let next = cursor ?? null;
  do {
    const reply = await api.call('GET', `/api/v1/messages?pageSize=${pageSize}${next ? `&cursor=${next}` : ''}`, { key: ws.key });
    expect(reply.status).toBe(200);
    ids.push(...reply.body.data.map((m: { id: string }) => m.id));
    next = reply.body.pagination.nextCursor;
  } while (next);
  return ids;
}

const newestFirst = (ids: string[]) => [...ids].sort().reverse();

describe('the message list partitions (data/message-list-shards.ts)', () => {
  it('outlast any list request: the widening delay is longer than ListMessages may run', () => {
    const timeoutSeconds = operations.find((operation) => operation.name === 'ListMessages')!.timeoutSeconds!;
    delete process.env.LIST_WIDENING_DELAY_MS;
    try {
      expect(env.listWideningDelayMs).toBeGreaterThan(timeoutSeconds * 1000);
    } finally {
      process.env.LIST_WIDENING_DELAY_MS = TEST_WIDENING_DELAY_MS;
    }
  });

  it('are one for a new workspace, and all of them for lists once a campaign widens it, which its fan-out writes after the delay', async () => {
    const ws = await api.workspace('pro');
    expect(await listShardsAdmitted(ws.id)).toBe(1);
    const widenedAt = Date.now();
    const first = await widenedList(ws.id);
    expect(first.shards).toBe(MESSAGE_SHARDS);
    expect(first.writableFrom).toBeGreaterThanOrEqual(widenedAt + Number(TEST_WIDENING_DELAY_MS));
    expect(await listShardsAdmitted(ws.id)).toBe(MESSAGE_SHARDS);
    // A second campaign finds the list widened: the same time to write from.
    expect(await widenedList(ws.id)).toEqual(first);
    const fanout = performance.now();
    expect(await fanoutListShards(ws.id)).toBe(MESSAGE_SHARDS);
    expect(Date.now()).toBeGreaterThanOrEqual(first.writableFrom);
    expect(performance.now() - fanout).toBeGreaterThan(1000);
    const later = performance.now();
    expect(await fanoutListShards(ws.id)).toBe(MESSAGE_SHARDS);
    expect(performance.now() - later).toBeLessThan(1000);
  });

  it('are all read for a workspace whose window item has no count (created before it, or gone after 100 idle days)', async () => {
    const { ws, sample } = await workspaceWithMessage();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: rateWindowKey(ws.id) }));
    const ids = [sample.id];
    for (let i = 0; i < 24; i++) {
      const message = copyOf(sample, newId());
      await putNewMessage(message, MESSAGE_SHARDS);
      ids.push(message.id);
    }
    expect(new Set(ids.map((id) => listShard(id, MESSAGE_SHARDS))).size).toBeGreaterThan(3);
    expect(await listIds(ws, 5)).toEqual(newestFirst(ids));
    expect(await widenedList(ws.id)).toEqual({ shards: MESSAGE_SHARDS, writableFrom: 0 });
  });

  it('widened between two pages: the cursor goes on over the new partitions, older messages written there since included', async () => {
    const { ws, sample } = await workspaceWithMessage();
    const sent = [sample.id];
    for (let i = 0; i < 3; i++) sent.push(await send(ws));
    const first = await api.call('GET', '/api/v1/messages?pageSize=2', { key: ws.key });
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual(newestFirst(sent).slice(0, 2));
    expect(await fanoutListShards(ws.id)).toBe(MESSAGE_SHARDS);
    // A campaign's ids carry its launch's time: messages written now may sort before those listed.
    const boundary = Number.parseInt(newestFirst(sent)[1].replace(/-/g, '').slice(0, 12), 16);
    const older = Array.from({ length: 12 }, (_, i) => copyOf(sample, v7({ msecs: boundary - 1 - i })));
    const newer = Array.from({ length: 4 }, () => copyOf(sample, newId()));
    for (const message of [...older, ...newer]) await putNewMessage(message, MESSAGE_SHARDS);
    expect(new Set(older.map((m) => listShard(m.id, MESSAGE_SHARDS))).size).toBeGreaterThan(3);
    const rest = await listIds(ws, 3, first.body.pagination.nextCursor);
    expect(rest).toEqual(newestFirst([...newestFirst(sent).slice(2), ...older.map((m) => m.id)]));
    expect(await listIds(ws, 50)).toEqual(newestFirst([...sent, ...older.map((m) => m.id), ...newer.map((m) => m.id)]));
  });

  it("a cursor made over every partition goes on when the next page is admitted with one (the day's first request reads them all)", async () => {
    const { ws, sample } = await workspaceWithMessage();
    const sent = [sample.id];
    for (let i = 0; i < 4; i++) sent.push(await send(ws));
    const first = await messagesPage(ws.id, {}, { skip: 0, take: 2 }, MESSAGE_SHARDS);
    if (first === 'invalid_cursor') throw new Error('invalid cursor');
    const next = await messagesPage(ws.id, {}, { skip: 0, take: 10, cursor: first.nextCursor! }, 1);
    if (next === 'invalid_cursor') throw new Error('the cursor was refused');
    expect([...first.messages, ...next.messages].map((m) => m.id)).toEqual(newestFirst(sent));
  });

  it('a list admitted before the widening, reading during the delay, shows no message stored after one it misses', async () => {
    const { ws, sample } = await workspaceWithMessage();
    // Ids whose partition once widened is not the first, and is: a fan-out writing at once would put them on either side of the list.
    const idIn = (wanted: (shard: number) => boolean) => {
      for (;;) {
        const id = newId();
        if (wanted(listShard(id, MESSAGE_SHARDS))) return id;
      }
    };
    const admission = await admit(ws.id, roomy);
    if (!admission.admitted) throw new Error('not admitted');
    expect(admission.listShards).toBe(1);
    const earlier = copyOf(
      sample,
      idIn((shard) => shard !== 0),
    );
    const later = copyOf(
      sample,
      idIn((shard) => shard === 0),
    );
    // A campaign's first chunk: it widens the list and writes two messages, one after the other.
    const fanout = (async () => {
      const shards = await fanoutListShards(ws.id);
      await putNewMessage(earlier, shards);
      await putNewMessage(later, shards);
    })();
    // The list's query, well within the delay: it reads the partitions its admission saw.
    await pause(500);
    const page = await messagesPage(ws.id, {}, { skip: 0, take: 10 }, admission.listShards);
    if (page === 'invalid_cursor') throw new Error('invalid cursor');
    const listed = page.messages.map((m) => m.id);
    expect(listed.includes(later.id) ? listed.includes(earlier.id) : true).toBe(true);
    await fanout;
    expect(await listIds(ws, 10)).toEqual(newestFirst([sample.id, earlier.id, later.id]));
  });

  it('a list shows every message stored before it began, and before any message it shows, while campaigns widen the list', async () => {
    const WRITERS = 8;
    // Readers list again as soon as they are answered, so a list takes longer the more of them there are: 32 made lists of 1.6 s
    // (median) on a quiet machine, and one past ListMessages's 10 s time-out (a 500) in a CI run beside another suite. 12 take
    // 0.6 s (2.9 s at most with two CPU burners beside); the writers pause longer, so as many lists are checked during the writes.
    const READERS = 6;
    const ROUNDS = 2;
    const PER_WRITER = 12;
    const SINGLE_WRITES = 3;
    // Each gap: a message the list does not show that was stored before the list began, or well before a message it shows was begun.
    const gaps: string[] = [];
    // The second holds for a list that answers within the widening's delay, as every list does deployed (shared/data/message-list-shards.ts);
    // here, under a loaded test run, a list has taken 4 s, and at a delay of 1.5 s 84 lists of 213 answered in time.
    // A widened list queries its 8 partitions side by side, and the proxy holds some of those queries 80 ms: one partition may be
    // read a moment before another, so it may show a message begun just after one it missed was stored (docs/decisions.md, "What
    // the rule does not change"). The widening's own race is a narrow list reading after the delay, far later than this.
    const QUERY_SKEW_MS = 400;
    let checkedLists = 0;
    let listsInTime = 0;
    // A list's query may start tens of milliseconds after its admission: long enough for a widening and two writes to land between.
    api.dependencies.dynamodb.setFaults({ latency_share: 0.5, latency_ms: 80 });
    await Promise.all(
      Array.from({ length: ROUNDS }, async () => {
        const { ws, sample } = await workspaceWithMessage();
        const written = new Map<string, { begun: number; stored: number }>([[sample.id, { begun: 0, stored: 0 }]]);
        let wideWrites = 0;
        let writing = true;
        const writers = Array.from({ length: WRITERS }, async () => {
          for (let i = 0; i < PER_WRITER; i++) {
            const message = copyOf(sample, newId());
            // The first writes are single sends; then a campaign widens the list while lists are under way.
            const shards = i < SINGLE_WRITES ? 1 : await fanoutListShards(ws.id);
            if (shards > 1) wideWrites++;
            const begun = performance.now();
            await putNewMessage(message, shards);
            written.set(message.id, { begun, stored: performance.now() });
            await pause(300 + Math.random() * 200);
          }
        });
        const readers = Array.from({ length: READERS }, async () => {
          while (writing) {
            const startedAt = performance.now();
            const reply = await api.call('GET', '/api/v1/messages?pageSize=100', { key: ws.key });
            // With calls held 80 ms, a second's first admissions may contend past their tries and be refused (contract §14): a client asks again.
            if (reply.status === 429) continue;
            if (reply.status !== 200) throw new Error(`list answered ${reply.status}: ${JSON.stringify(reply.body)}`);
            const answeredInMs = performance.now() - startedAt;
            const inTime = answeredInMs < env.listWideningDelayMs;
            const listed = new Set<string>(reply.body.data.map((m: { id: string }) => m.id));
            // The latest a message the list should show may have been stored: when the list began, or a query's skew before the last-begun message it shows was begun.
            const shown = inTime ? [...listed].map((id) => (written.get(id)?.begun ?? 0) - QUERY_SKEW_MS) : [];
            const horizon = Math.max(startedAt, ...shown);
            for (const [id, { stored }] of written)
              if (stored < horizon && !listed.has(id))
                gaps.push(`${id}, stored ${Math.round(startedAt - stored)} ms before the list began, which answered in ${Math.round(answeredInMs)} ms`);
            checkedLists++;
            if (inTime) listsInTime++;
          }
        });
        await Promise.all(writers);
        writing = false;
        await Promise.all(readers);
        // The writes went on past the delay, into every partition.
        expect(wideWrites).toBeGreaterThan(PER_WRITER);
        expect(await listIds(ws, 100)).toEqual(newestFirst([...written.keys()]));
      }),
    );
    api.dependencies.dynamodb.setFaults({ latency_share: 0 });
    console.log(`${checkedLists} lists checked for gaps, ${listsInTime} of them answered within the widening's delay`);
    // 100 to 213 lists on this machine, by how busy the run beside it keeps the CPU: 60 still checks every write against many lists.
    expect(checkedLists).toBeGreaterThan(60);
    expect(listsInTime).toBeGreaterThan(30);
    expect(gaps).toEqual([]);
  }, 60_000);
});
