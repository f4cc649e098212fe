import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import pg from 'pg';
import { createTestApp, type ApiResponse, type TestApp } from '#tests/helpers/app.ts';
import { createWarehouse, requestAt, signInPerson, uploadedImage, validRequest, type Person } from '#tests/helpers/fixtures.ts';
import { startTcpProxy, type TcpProxy } from '#tests/helpers/tcp-proxy.ts';

setDefaultTimeout(60_000);

const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

/**
 * The database going away under a running app, on PostgreSQL: a TCP proxy sits between the app's
 * pool and the server, and the test cuts, drops and restores it (the machine's PostgreSQL is never
 * touched). The embedded database lives in the process and cannot be cut this way.
 */
describe.skipIf(!process.env.DATABASE_URL)('losing the database (postgres through a TCP proxy)', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;
  const throughProxy = (url: string) => {
    const via = new URL(url);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    return via.toString();
  };

  beforeAll(async () => {
    const server = new URL(process.env.DATABASE_URL!);
    proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
    // a short wait for the database, so that a long cut answers 503 soon
    t = await createTestApp('postgres', { DB_UNAVAILABLE_WAIT_MS: '300' }, { connectVia: throughProxy });
    admin = await signInPerson(t, undefined, { admin: true });
    customer = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  const detail = (id: string) => t.request('GET', `/api/exchange/${id}`, { token: customer.token });
  const credit = (id: string, creditAmount: number) => t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount } });
  const create = async () => {
    const image = await uploadedImage(t, customer.id);
    return { image, response: () => t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([image]) }) };
  };

  test('reads whose connections drop mid-query are read again on fresh connections: every one succeeds', async () => {
    const id = await requestAt(t, 'pending', customer, admin, warehouseId);
    // open the pool's connections first, so the reads below run on established ones
    await Promise.all(Array.from({ length: 10 }, () => detail(id)));
    await t.ctx.mailer.flush(); // the app's own mail drain (kicked by the requests above) is done: only our reads use the pool
    // as many reads as there are open connections: none has to connect while the proxy holds
    const open = Math.min(8, proxy.connections());
    expect(open).toBeGreaterThanOrEqual(2);
    proxy.hold(); // the queries reach the proxy and go no further
    const reads = Array.from({ length: open }, (_, i) => (i % 2 ? detail(id) : t.request('GET', '/api/exchange', { token: customer.token })));
    await Bun.sleep(300);
    proxy.drop(); // every connection severed while its query is in flight
    const answers = await Promise.all(reads);
    expect(answers.map((a) => a.status)).toEqual(Array(open).fill(200));
    expect(answers[1]!.body).toMatchObject({ id, status: 'pending' });
  });

  test('while the database is cut: 503 with a JSON error, never a 500; once restored every request succeeds, no committed write is lost and no credit doubles', async () => {
    const toCredit = [await requestAt(t, 'received', customer, admin, warehouseId), await requestAt(t, 'received', customer, admin, warehouseId)];
    const pending = await requestAt(t, 'pending', customer, admin, warehouseId);
    const created: string[] = [];
    const prepared = await create();
    const duringCut = await create();

    await t.ctx.mailer.flush(); // the mail the steps above queued has gone: the cut below meets only these writes
    // writes in flight when the connection goes: their outcome is unknown to the client
    proxy.hold();
    const inFlight = [credit(toCredit[0]!, 300), prepared.response()];
    await Bun.sleep(300);
    proxy.cut();
    const waitedFrom = performance.now();
    const firstDuringCut = await t.request('GET', '/api/exchange', { token: customer.token });
    // it waited for the database (DB_UNAVAILABLE_WAIT_MS, 300 here), then gave up
    expect(performance.now() - waitedFrom).toBeGreaterThanOrEqual(250);
    expect(performance.now() - waitedFrom).toBeLessThan(3_000);
    const during: ApiResponse[] = [
      ...(await Promise.all(inFlight)),
      firstDuringCut,
      await detail(pending),
      await t.request('GET', '/api/admin/exchange-requests', { token: admin.token }),
      await credit(toCredit[1]!, 450),
      await duringCut.response(),
      await t.request('GET', '/api/auth/profile', { token: customer.token }),
    ];
    for (const r of during) {
      expect(r.status).not.toBe(500);
      if (r.status === 503) {
        expect(r.body).toEqual({ error: DATABASE_UNAVAILABLE });
        expect(r.headers.get('retry-after')).toBe('5');
      }
    }
    // nothing can reach the database now: everything but a write that committed before the cut is a 503
    expect(during.slice(2).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
    if (during[1]!.status === 201) created.push(during[1]!.body.id);

    proxy.restore();
    const after: ApiResponse[] = [
      await t.request('GET', '/api/exchange', { token: customer.token }),
      await detail(pending),
      await t.request('GET', '/api/admin/exchange-requests', { token: admin.token }),
      await t.request('GET', '/api/auth/profile', { token: customer.token }),
    ];
    expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // the writes the client could not be sure of are sent again: each lands once
    for (const [id, amount] of [[toCredit[0]!, 300], [toCredit[1]!, 450]] as const) {
      const again = await credit(id, amount);
      if (again.status === 409) expect(again.body.error).toBe('Credit has already been assigned to this request.');
      else expect(again.status).toBe(200);
    }
    const fresh = await (await create()).response();
    expect(fresh.status).toBe(201);
    created.push(fresh.body.id);

    for (const id of created) expect((await detail(id)).status).toBe(200);
    for (const id of toCredit) {
      const rows = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();
      expect(rows).toHaveLength(1);
      const request = await detail(id);
      expect(request.body.creditAmount).toBe(Number(rows[0]!.amount));
    }
    const balance = await t.request('GET', '/api/shopify/credit', { token: customer.token });
    expect(balance.body.creditAmount).toBe(750);
  });
  test('a restart shorter than DB_UNAVAILABLE_WAIT_MS goes unnoticed: requests arriving while the database is away wait for it and all succeed, none held longer than the wait', async () => {
    const patient = await createTestApp('postgres', { DB_UNAVAILABLE_WAIT_MS: '5000' }, { connectVia: throughProxy });
    try {
      const [asha, root] = [await signInPerson(patient), await signInPerson(patient, undefined, { admin: true })];
      const warehouse = (await createWarehouse(patient, root)).id;
      const pending = await requestAt(patient, 'pending', asha, root, warehouse);
      const image = await uploadedImage(patient, asha.id);
      await Promise.all(Array.from({ length: 6 }, () => patient.request('GET', `/api/exchange/${pending}`, { token: asha.token })));
      await patient.ctx.mailer.flush();

      proxy.cut(); // every connection gone, new ones refused: the server is restarting
      await Bun.sleep(50);
      const started = performance.now();
      const timed = async (call: Promise<ApiResponse>) => ({ response: await call, ms: performance.now() - started });
      const calls = [
        ...Array.from({ length: 8 }, (_, i) => patient.request('GET', i % 2 ? '/api/exchange' : `/api/exchange/${pending}`, { token: asha.token })),
        patient.request('GET', '/api/admin/exchange-requests', { token: root.token }),
        patient.request('GET', '/api/auth/profile', { token: asha.token }),
        patient.request('POST', '/api/exchange', { token: asha.token, body: validRequest([image]) }),
      ].map(timed);
      await Bun.sleep(1_000);
      proxy.restore();
      const answers = await Promise.all(calls);
      expect(answers.map((a) => a.response.status)).toEqual([...Array(10).fill(200), 201]);
      for (const { ms } of answers) {
        expect(ms).toBeGreaterThanOrEqual(900); // each waited for the database to come back
        expect(ms).toBeLessThan(5_000 + 1_500);
      }
      expect((await patient.request('GET', `/api/exchange/${answers[10]!.response.body.id}`, { token: asha.token })).status).toBe(200);
    } finally {
      proxy.restore();
      await patient.close();
    }
  });
});

/** The server ending the app's connections itself, as a restart does (fast shutdown ends every backend). */
describe.skipIf(!process.env.DATABASE_URL)('statements ended by the server (postgres)', () => {
  let direct: TestApp;
  beforeAll(async () => {
    direct = await createTestApp('postgres');
  });
  afterAll(() => direct.close());

  test('statements the server ends while they run (pg_terminate_backend, as a restart ends every backend) are read again, and a lost touch of the session is let go: a detail, the queue and the profile answer 200', async () => {
    const locker = new pg.Client({ connectionString: direct.ctx.settings.databaseUrl });
    try {
      const [asha, root] = [await signInPerson(direct), await signInPerson(direct, undefined, { admin: true })];
      const id = await requestAt(direct, 'pending', asha, root, (await createWarehouse(direct, root)).id);
      // the pool's connections open first: a new one could wait for a busy server, not for the lock
      await Promise.all(Array.from({ length: 4 }, () => direct.request('GET', `/api/exchange/${id}`, { token: asha.token })));
      await direct.ctx.mailer.flush();
      await locker.connect();
      const appWaiting = async () =>
        (await locker.query(`select pid from pg_stat_activity where datname = current_database() and application_name = 'swappoints' and wait_event_type = 'Lock'`)).rows.map((r) => r.pid as number);
      /** Sends the request while a table is locked (LOCK: `table in mode`), ends the app's statements waiting on it, and answers. */
      const endedMidRequest = async (lock: string, send: () => Promise<ApiResponse>, statements: number) => {
        await locker.query('begin');
        await locker.query(`lock table ${lock}`);
        const answer = send();
        let waiting: number[] = [];
        for (let i = 0; i < 250 && waiting.length < statements; i++) {
          await Bun.sleep(20);
          waiting = await appWaiting();
        }
        expect(waiting).toHaveLength(statements);
        await locker.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [waiting]);
        await locker.query('commit');
        return answer;
      };
      // the detail's valuation statement (raw SQL) and its balance read (built) wait on the ledger
      const one = await endedMidRequest('credit_ledger in access exclusive mode', () => direct.request('GET', `/api/exchange/${id}`, { token: asha.token }), 2);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id, status: 'pending', creditBreakdown: null, totalShopifyCredit: 0 });
      // the queue's total comes from the counter table (raw SQL)
      const queue = await endedMidRequest('exchange_request_counts in access exclusive mode', () => direct.request('GET', '/api/admin/exchange-requests?tab=0&page=1&pageSize=5', { token: root.token }), 1);
      expect(queue.status).toBe(200);
      expect(queue.headers.get('x-total-count')).toBe('1');

      // the once-a-minute write of a session's last use (reads of the table go on, the update waits):
      // lost with its connection, it costs the request nothing, and the next request writes it
      const sid = JSON.parse(Buffer.from(asha.token.split('.')[1]!, 'base64url').toString()).sid as string;
      await locker.query(`update sessions set last_seen_at = now() - interval '2 minutes' where id = $1`, [sid]);
      const lastSeen = async () => (await locker.query('select last_seen_at from sessions where id = $1', [sid])).rows[0].last_seen_at.getTime() as number;
      const before = await lastSeen();
      const profile = await endedMidRequest('sessions in exclusive mode', () => direct.request('GET', '/api/auth/profile', { token: asha.token }), 1);
      expect(profile.status).toBe(200);
      expect(await lastSeen()).toBe(before);
      expect((await direct.request('GET', '/api/auth/profile', { token: asha.token })).status).toBe(200);
      expect((await lastSeen()) - before).toBeGreaterThan(100_000);
    } finally {
      await locker.end();
    }
  });

});
