import { randomDigits } from '#local/random';
import { env } from '#shared/config';
import { DeleteCommand, PutCommand } from '#shared/data/table/commands';
import { db, tableName } from '#shared/data/table/client';
import { getAccountClaim } from '#shared/data/account-claim';
import { claimAccountsOfExistingNumbers } from '#shared/domain/numbers/account-upgrade';
import { getWorkspace } from '#shared/domain/workspaces';
import { TEST_PLATFORM, useTestApi, type TestWorkspace } from '../support/api';
import { simulatorControl } from '../support/simulator';

/**
 * Contract §22: a business account and each of its numbers belong to one workspace at a time, and
 * everything the service does on the platform for a workspace stays inside the accounts it holds.
 */
const api = useTestApi();
const simulator = simulatorControl(() => api.simulator.url);

const call = (ws: TestWorkspace, method: string, path: string, body?: unknown) => api.call(method, path, { key: ws.key, ...(body !== undefined && { body }) });
const connectByOperator = (ws: TestWorkspace, body: { phone_number_id: string; waba_id: string }) =>
  api.call('POST', `/admin/v1/workspaces/${ws.id}/numbers`, { key: api.operatorKey, body });
/** A number the platform lists in `wabaId` (registered again: it moves there). */
const registered = async (wabaId: string, id = randomDigits(15)) => {
  api.simulator.registerNumber(id, wabaId);
  return id;
};
const numberIds = async (ws: TestWorkspace) => (await call(ws, 'GET', '/api/v1/numbers')).body.data.map((n: { id: string }) => n.id);
const templates = async (ws: TestWorkspace, status: string) => (await call(ws, 'GET', `/api/v1/templates?status=${status}`)).body.data as Record<string, any>[];
/** Accepted `subscribed_apps` requests for the account, as the simulator counted them. */
const subscriptions = async (wabaId: string) => {
  const { data } = (await (await fetch(`${api.simulator.url}/_simulate/subscriptions`)).json()) as { data: { waba_id: string; requests: number }[] };
  return data.find((s) => s.waba_id === wabaId)?.requests ?? 0;
};
/** The templates the platform itself holds for the account (the shared token reaches every account). */
const platformTemplateNames = async (wabaId: string) => {
  const page = await fetch(`${api.simulator.url}/${env.graphApiVersion}/${wabaId}/message_templates?limit=100`, {
    headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` },
  });
  const names: string[] = [];
  let body = (await page.json()) as { data: { name: string }[]; paging?: { next?: string } };
  names.push(...body.data.map((t) => t.name));
  while (body.paging?.next) {
    body = (await (await fetch(body.paging.next, { headers: { Authorization: `Bearer ${TEST_PLATFORM.access_token}` } })).json()) as typeof body;
    names.push(...body.data.map((t) => t.name));
  }
  return names;
};
const privateTemplate = {
  name: 'b_private_offer',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your private offer, {{1}}.', example: { body_text: [['Ada']] } }],
};

describe('whose account it is (contract §22)', () => {
  it("replays the attack: A names B's account with its own number and with a number B does not hold, while B connects one; A gets 409, sees none of B's templates and cannot delete them", async () => {
    const [a, b] = await Promise.all([api.workspaceWithTemplates(), api.workspaceWithTemplates()]);
    const created = await call(b, 'POST', '/api/v1/templates', privateTemplate);
    expect(created.status).toBe(201);
    const bTemplate = created.body.data;
    const aOwn = await registered(a.wabaId);
    const bUnheld = await registered(b.wabaId);
    const bSecond = await registered(b.wabaId);
    const aBefore = await templates(a, 'APPROVED');

    // All at once, several times over: a check-then-write connect would let one of A's through.
    const attacks = Array.from({ length: 4 }, () => [
      call(a, 'POST', '/api/v1/numbers', { phone_number_id: aOwn, waba_id: b.wabaId }),
      call(a, 'POST', '/api/v1/numbers', { phone_number_id: bUnheld, waba_id: b.wabaId }),
    ]).flat();
    const [bConnects, ...refused] = await Promise.all([call(b, 'POST', '/api/v1/numbers', { phone_number_id: bSecond, waba_id: b.wabaId }), ...attacks]);
    expect(bConnects.status).toBe(201);
    for (const reply of refused) expect([reply.status, reply.body.error.code]).toEqual([409, 'account_in_use']);
    // The operator cannot hand B's account to A either.
    const byOperator = await connectByOperator(a, { phone_number_id: bUnheld, waba_id: b.wabaId });
    expect([byOperator.status, byOperator.body.error.code]).toEqual([409, 'account_in_use']);

    expect(await numberIds(a)).toEqual([a.phoneNumberId]);
    expect(await numberIds(b)).toEqual([b.phoneNumberId, bSecond]);
    // B's account was subscribed once, by B's own connect.
    expect(await subscriptions(b.wabaId)).toBe(1);

    // A sees nothing of B's account, after a sync too, and cannot act on B's template.
    expect((await call(a, 'POST', '/api/v1/templates/sync')).status).toBe(200);
    expect(await templates(a, 'APPROVED')).toEqual(aBefore);
    const aPending = await templates(a, 'PENDING');
    expect(aPending.every((t) => t.waba_id === a.wabaId && t.name !== 'b_private_offer')).toBe(true);
    expect((await call(a, 'GET', `/api/v1/templates?status=PENDING&waba_id=${b.wabaId}`)).body.data).toEqual([]);
    const deleted = await call(a, 'DELETE', `/api/v1/templates/${bTemplate.id}`);
    expect([deleted.status, deleted.body.error.code]).toEqual([404, 'not_found']);
    const edited = await call(a, 'PATCH', `/api/v1/templates/${bTemplate.id}`, { components: privateTemplate.components });
    expect(edited.status).toBe(404);
    const createdInB = await call(a, 'POST', '/api/v1/templates', { ...privateTemplate, name: 'a_intruder', waba_id: b.wabaId });
    expect([createdInB.status, createdInB.body.error.details[0].field]).toEqual([422, 'waba_id']);

    // B's template is intact, in B's list and on the platform.
    expect((await templates(b, 'PENDING')).map((t) => t.id)).toContain(bTemplate.id);
    expect(await platformTemplateNames(b.wabaId)).toContain('b_private_offer');
    expect(await platformTemplateNames(b.wabaId)).not.toContain('a_intruder');
  });

  it('gives an account that many workspaces connect at the same moment to exactly one; the others 409, subscribed once', async () => {
    const account = randomDigits(15);
    const workspaces = await Promise.all(Array.from({ length: 12 }, () => api.workspace()));
    const numbers = await Promise.all(workspaces.map(() => registered(account)));
    const replies = await Promise.all(workspaces.map((ws, i) => connectByOperator(ws, { phone_number_id: numbers[i], waba_id: account })));
    const won = replies.flatMap((reply, i) => (reply.status === 201 ? [i] : []));
    expect(won).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 201)) expect([reply.status, reply.body.error.code]).toEqual([409, 'account_in_use']);
    expect(await subscriptions(account)).toBe(1);
    expect(await getAccountClaim(account)).toMatchObject({ workspace_id: workspaces[won[0]].id, number_count: 1, connected_by: 'operator' });
    const holders = await Promise.all(workspaces.map(async (ws) => (await numberIds(ws)).some((id: string) => numbers.includes(id))));
    expect(holders.filter(Boolean)).toHaveLength(1);
  });

  it('a workspace without a token of its own takes no account alone, but adds numbers to one the operator connected for it', async () => {
    const ws = await api.workspaceWithTemplates();
    const account = randomDigits(15);
    const [first, second] = [await registered(account), await registered(account)];
    const alone = await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: first, waba_id: account });
    expect([alone.status, alone.body.error.code]).toEqual([422, 'number_not_in_account']);
    expect(await getAccountClaim(account)).toBeUndefined();
    expect((await connectByOperator(ws, { phone_number_id: first, waba_id: account })).status).toBe(201);
    expect((await call(ws, 'POST', '/api/v1/numbers', { phone_number_id: second, waba_id: account })).status).toBe(201);
    expect(await getAccountClaim(account)).toMatchObject({ workspace_id: ws.id, number_count: 2, connected_by: 'operator' });
  });

  it("releases an account with its last number: another workspace may connect it then, and the first sees the account's templates no more", async () => {
    const [first, second] = await Promise.all([api.workspace(), api.workspace()]);
    const account = randomDigits(15);
    const [one, two] = [await registered(account), await registered(account)];
    expect((await connectByOperator(first, { phone_number_id: one, waba_id: account })).status).toBe(201);
    expect((await call(first, 'POST', '/api/v1/numbers', { phone_number_id: two, waba_id: account })).status).toBe(201);
    const ofAccount = (await call(first, 'GET', `/api/v1/templates?waba_id=${account}`)).body.data;
    expect(ofAccount.length).toBeGreaterThan(0);
    expect((await connectByOperator(second, { phone_number_id: randomDigits(15), waba_id: account })).body.error.code).toBe('account_in_use');

    expect((await call(first, 'DELETE', `/api/v1/numbers/${one}`)).status).toBe(200);
    expect(await getAccountClaim(account)).toMatchObject({ workspace_id: first.id, number_count: 1 });
    expect((await connectByOperator(second, { phone_number_id: one, waba_id: account })).body.error.code).toBe('account_in_use');
    expect((await call(first, 'DELETE', `/api/v1/numbers/${two}`)).status).toBe(200);
    expect(await getAccountClaim(account)).toBeUndefined();

    expect((await call(first, 'GET', `/api/v1/templates?waba_id=${account}`)).body.data).toEqual([]);
    expect((await call(first, 'DELETE', `/api/v1/templates/${ofAccount[0].id}`)).status).toBe(404);
    expect((await connectByOperator(second, { phone_number_id: one, waba_id: account })).status).toBe(201);
    expect((await call(second, 'GET', `/api/v1/templates?waba_id=${account}`)).body.data.length).toBe(ofAccount.length);
  });

  it('claims nothing and subscribes nothing when a platform step of the connect fails; another workspace connects the account after', async () => {
    const [failing, other] = await Promise.all([api.workspace(), api.workspace()]);
    const account = randomDigits(15);
    const [one, two] = [await registered(account), await registered(account)];
    try {
      for (const fault of ['phone_numbers', 'phone_number', 'subscribed_apps']) {
        await simulator.faults({ onboarding_fault: fault });
        const reply = await connectByOperator(failing, { phone_number_id: one, waba_id: account });
        expect([reply.status, reply.body.error.code]).toEqual([502, 'platform_error']);
        expect(await getAccountClaim(account)).toBeUndefined();
      }
    } finally {
      await simulator.resetFaults();
    }
    expect(await subscriptions(account)).toBe(0);
    expect(await numberIds(failing)).toEqual([failing.phoneNumberId]);
    expect((await connectByOperator(other, { phone_number_id: two, waba_id: account })).status).toBe(201);
  });

  it('follows a number that moves to another account on the platform: refused where it no longer is, and held by its workspace until disconnected', async () => {
    const [holder, other] = await Promise.all([api.workspace(), api.workspace()]);
    const [from, to] = [randomDigits(15), randomDigits(15)];
    const moving = await registered(from);
    await registered(from); // `from` keeps a number once the other has moved
    expect((await connectByOperator(holder, { phone_number_id: moving, waba_id: from })).status).toBe(201);
    await registered(to, moving);
    const taken = await connectByOperator(other, { phone_number_id: moving, waba_id: to });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'number_in_use']);
    // Its new account's claim was not kept for a refused connect.
    expect(await getAccountClaim(to)).toBeUndefined();
    expect((await call(holder, 'DELETE', `/api/v1/numbers/${moving}`)).status).toBe(200);
    const stale = await connectByOperator(other, { phone_number_id: moving, waba_id: from });
    expect([stale.status, stale.body.error.code]).toEqual([422, 'number_not_in_account']);
    expect((await connectByOperator(other, { phone_number_id: moving, waba_id: to })).status).toBe(201);
  });

  it('the upgrade claims the accounts of numbers connected before claims, for the workspace that connected first, and reports an account two workspaces hold', async () => {
    const [earlier, later] = [await api.workspace(), await api.workspace()];
    // As stored before claims: no claim items, and the later workspace's second number in the earlier one's account.
    for (const ws of [earlier, later]) await db().send(new DeleteCommand({ TableName: tableName(), Key: { PK: `WABA#${ws.wabaId}`, SK: 'ACCOUNT' } }));
    const shared = await registered(earlier.wabaId);
    const at = new Date().toISOString();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          PK: `WS#${later.id}#NUMBERS`,
          SK: shared,
          GSI1PK: `WABA#${earlier.wabaId}#NUMBERS`,
          GSI1SK: '15550000000',
          id: shared,
          workspace_id: later.id,
          waba_id: earlier.wabaId,
          display_phone_number: '15550000000',
          verified_name: null,
          quality_rating: 'GREEN',
          messaging_limit: null,
          throughput_mps: 80,
          status: 'connected',
          connected_at: at,
          updated_at: at,
        },
      }),
    );
    await db().send(new PutCommand({ TableName: tableName(), Item: { PK: `PHONE_NUMBER#${shared}`, SK: 'PHONE_NUMBER', workspace_id: later.id } }));
    const workspaces = [(await getWorkspace(earlier.id))!, (await getWorkspace(later.id))!];
    const upgrade = await claimAccountsOfExistingNumbers(workspaces);
    expect(upgrade.claimed.sort()).toEqual([earlier.wabaId, later.wabaId].sort());
    expect(upgrade.contested).toEqual([{ waba_id: earlier.wabaId, holder: earlier.id, others: [later.id] }]);
    expect(await getAccountClaim(earlier.wabaId)).toMatchObject({ workspace_id: earlier.id, number_count: 1, connected_by: 'operator' });
    expect(await getAccountClaim(later.wabaId)).toMatchObject({ workspace_id: later.id, number_count: 1 });
    // Nothing disconnected; the later workspace reaches the contested account's templates no more.
    expect(await numberIds(later)).toEqual([later.phoneNumberId, shared]);
    expect((await call(later, 'GET', `/api/v1/templates?waba_id=${earlier.wabaId}`)).body.data).toEqual([]);
    // Run again: nothing more to claim, the same report.
    expect(await claimAccountsOfExistingNumbers(workspaces)).toEqual({ claimed: [], contested: upgrade.contested });
  });
});
