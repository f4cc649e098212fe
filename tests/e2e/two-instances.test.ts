import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import pg from 'pg';
import { createS3ImageStore, imageKey } from '#api/integrations/images/index.ts';
import { createPostgresDatabase } from '#tests/helpers/db.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { warehouseBody } from '#tests/helpers/fixtures.ts';
import { png } from '#tests/helpers/images.ts';
import { submitRequestThroughApi, submitShippingThroughApi } from '#tests/helpers/requests.ts';
import { startFakeS3, type FakeS3 } from '#tests/helpers/s3.ts';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';
import { startSmtp, unfold, type FakeSmtp } from '#tests/helpers/smtp.ts';

setDefaultTimeout(120_000);

/**
 * The whole product running twice: two built servers on two ports over one PostgreSQL database,
 * one S3 bucket (s3rver), one JWT_SECRET, one SMTP server and one (fake) Shopify, as a shop behind
 * a load balancer would run it. Each server has a DATA_DIR (and so a MEDIA_DIR) of its own.
 */
const ADMIN = 'ops@shop.test';
const SHOPIFY_TOKEN = 'shpat_two_instances';
const CUSTOMERS = ['asha.rao@example.com', 'ravi.iyer@example.com', 'meera.nair@example.com', 'kiran.rao@example.com', 'dev.shah@example.com'];
const SIGN_IN_LIMIT = 4;

describe.skipIf(!process.env.DATABASE_URL)('two instances over one PostgreSQL and one bucket', () => {
  let database: { url: string; drop: () => Promise<void> };
  let s3: FakeS3;
  let smtp: FakeSmtp;
  let shopify: FakeShopify;
  let a: RunningServer;
  let b: RunningServer;
  let sql: pg.Client;
  let startedAt: number;

  beforeAll(async () => {
    [database, s3, smtp, shopify] = await Promise.all([createPostgresDatabase(), startFakeS3(), startSmtp(), startFakeShopify({ token: SHOPIFY_TOKEN })]);
    for (const email of CUSTOMERS) shopify.addCustomer(email);
    const shared = {
      DATABASE_URL: database.url,
      JWT_SECRET: 'one-secret-shared-by-every-instance-of-this-shop',
      ...s3.env('swappoints/'),
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SHOP_BACKEND: 'shopify',
      SHOPIFY_ADMIN_URL: shopify.url,
      SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN,
      SHOPIFY_TIMEOUT_MS: '10000',
      ADMIN_EMAILS: ADMIN,
      DEMO_SEED: 'false',
      SIGNIN_LIMIT_PER_EMAIL: String(SIGN_IN_LIMIT),
      LOG_LEVEL: 'info',
    };
    startedAt = Date.now();
    // Both at the same moment, on an empty database.
    [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([database?.drop(), s3?.close(), smtp?.stop()]);
    shopify?.close();
  });

  const count = async (query: string, params: unknown[] = []) => Number((await sql.query(query, params)).rows[0].n);
  const tokensMailedTo = (email: string) =>
    smtp.received.filter((r) => r.to.includes(email)).flatMap((r) => [...new Set([...unfold(r.data).matchAll(/verify-email\?token=([\w-]+)/g)].map((m) => m[1]!))]);
  /** The sign-in a person makes: ask on one instance, open the link that arrives by mail (SMTP keeps no link at rest), verify on another. */
  const signIn = async (askOn: RunningServer, verifyOn: RunningServer, email: string): Promise<string> => {
    const before = tokensMailedTo(email).length;
    expect((await askOn.api('POST', '/api/auth/login', undefined, { email })).status).toBe(202);
    for (let i = 0; i < 600 && tokensMailedTo(email).length === before; i++) await Bun.sleep(50);
    const token = tokensMailedTo(email).at(-1);
    expect(tokensMailedTo(email)).toHaveLength(before + 1);
    const verified = await verifyOn.api<{ sessionToken: string }>('POST', '/api/auth/verify-email', undefined, { email, token });
    expect(verified.status).toBe(200);
    return verified.body.sessionToken;
  };
  const profile = (server: RunningServer, token: string) => server.api('GET', '/api/auth/profile', token);

  test('both started together on an empty database: one migrated (under the advisory lock), both came up', async () => {
    const migrated = [a, b].filter((s) => s.log().includes('database migrated'));
    expect(migrated).toHaveLength(1);
    expect(migrated[0]!.log().match(/database migrated/g)).toHaveLength(1);
    expect(await count('select count(*) as n from kysely_migration')).toBeGreaterThan(0);
    expect(await count('select count(*) - count(distinct name) as n from kysely_migration')).toBe(0);
    for (const server of [a, b]) {
      const health = await server.api('GET', '/api/health');
      expect(health).toEqual({ status: 200, body: { status: 'ok', database: 'ok', objectStore: 'ok', imageStore: 's3' } });
    }
  });

  test('signed in on A is recognised on B; logging out on B ends the session on A', async () => {
    const token = await signIn(a, a, CUSTOMERS[0]!);
    expect((await profile(b, token)).status).toBe(200);
    expect((await profile(b, token)).body.email).toBe(CUSTOMERS[0]);
    expect((await b.api('POST', '/api/auth/logout', token)).status).toBe(200);
    expect((await profile(a, token)).status).toBe(401);
    expect((await profile(b, token)).status).toBe(401);
  });

  test('an image uploaded through A is served by B, from the bucket', async () => {
    const token = await signIn(b, a, CUSTOMERS[1]!);
    const bytes = new Uint8Array(png(40, 30));
    const form = new FormData();
    form.append('file', new File([bytes], 'drum.png', { type: 'image/png' }));
    form.append('upload_preset', 'swappoints');
    form.append('cloud_name', 'swappoints');
    const upload = await fetch(`${a.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(upload.status).toBe(200);
    const { secure_url, public_id } = (await upload.json()) as { secure_url: string; public_id: string };
    const served = await fetch(`${b.url}${secure_url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    // uploads are stored cleaned (decoded and written again): B serves exactly what A put in the bucket
    const stored = await createS3ImageStore(s3.settings('swappoints/')).get(imageKey(public_id, 'image/png'));
    expect(stored).not.toBeNull();
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(await new Response(stored!.body).arrayBuffer()));
  });

  test('20 concurrent credit assignments split across A and B: one 200, one ledger row, one push', async () => {
    const adminToken = await signIn(a, b, ADMIN);
    const customer = await signIn(b, b, CUSTOMERS[2]!);
    const warehouse = await a.api<{ id: string }>('POST', '/api/admin/warehouses', adminToken, warehouseBody());
    expect(warehouse.status).toBe(201);
    const id = await submitRequestThroughApi(a, customer, { productName: 'Canon 057 Toner', brand: 'Canon', condition: 'new', description: 'Sealed.' });
    expect((await b.api('PUT', `/api/admin/exchange-requests/${id}/status`, adminToken, { status: 'approved', warehouseId: warehouse.body.id })).status).toBe(200);
    await submitShippingThroughApi(b, customer, id);
    expect((await a.api('PUT', `/api/admin/exchange-requests/${id}/transit`, adminToken, { transitStatus: 'received' })).status).toBe(200);

    const pushesBefore = shopify.operations('SwapPointsCredit');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).api('PUT', `/api/admin/exchange-requests/${id}/credit`, adminToken, { creditAmount: 250 })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
    expect(await count('select count(*) as n from credit_ledger where exchange_request_id = $1', [id])).toBe(1);
    // The push happens once, whichever instance or job does it. Once it is recorded, a credit-push
    // run started after that (one claimed run per period over both instances), and the moment it
    // takes, would have made a second one.
    const customerId = shopify.customerId(CUSTOMERS[2]!)!;
    for (let i = 0; i < 300 && shopify.balance(customerId) === 0; i++) await Bun.sleep(100);
    const pushed = "select count(*) as n from credit_ledger where exchange_request_id = $1 and push_status = 'success'";
    for (let i = 0; i < 100 && (await count(pushed, [id])) === 0; i++) await Bun.sleep(100);
    const recordedAt = (await sql.query<{ now: string }>('select now()::text as now')).rows[0]!.now;
    const runStartedAfter = "select count(*) as n from background_job_runs where name = 'credit-push' and last_started_at > $1::timestamptz";
    for (let i = 0; i < 300 && (await count(runStartedAfter, [recordedAt])) === 0; i++) await Bun.sleep(100);
    expect(await count(runStartedAfter, [recordedAt])).toBe(1);
    await Bun.sleep(2_000);
    expect(shopify.operations('SwapPointsCredit') - pushesBefore).toBe(1);
    expect(shopify.transactionsOf(customerId).map((t) => t.cents)).toEqual([25_000]);
  });

  test('sign-in rate limits are shared: the limit counts requests on both, and past it no more mail goes out', async () => {
    const email = CUSTOMERS[3]!;
    const answers: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT + 3; i++) answers.push((await (i % 2 ? b : a).api('POST', '/api/auth/login', undefined, { email })).status);
    // Past the limit the answer stays the same (no hint for a guesser), only no mail is written.
    expect(answers).toEqual(Array(SIGN_IN_LIMIT + 3).fill(202));
    expect(await count("select count(*) as n from mail_outbox where to_email = $1 and kind = 'sign_in'", [email])).toBe(SIGN_IN_LIMIT);
  });

  test('each mail is sent once, and each background job ran once', async () => {
    // Sign-in links requested on both instances at once, besides whatever the other tests mailed.
    await Promise.all([a, b, a, b].map((server) => server.api('POST', '/api/auth/login', undefined, { email: CUSTOMERS[4] })));
    // Two polls of the outbox by both instances later, every message has gone, each exactly once.
    await Bun.sleep(6_000);
    const outbox = async () => (await sql.query<{ id: number; to_email: string; kind: string; status: string }>('select id, to_email, kind, status from mail_outbox order by id')).rows;
    let mails = await outbox();
    for (let i = 0; i < 100 && mails.some((m) => m.status !== 'sent'); i++) mails = (await Bun.sleep(200), await outbox());
    expect(mails.filter((m) => m.status !== 'sent')).toEqual([]);
    expect(mails.filter((m) => m.to_email === CUSTOMERS[4])).toHaveLength(4);
    const perRecipient = (to: string[]) => Object.fromEntries([...new Set(to)].sort().map((e) => [e, to.filter((x) => x === e).length]));
    expect(perRecipient(smtp.received.flatMap((r) => r.to))).toEqual(perRecipient(mails.map((m) => m.to_email)));
    expect(smtp.received).toHaveLength(mails.length);
    // Each sign-in link (a token unique per message) arrived exactly once.
    const tokens = CUSTOMERS.flatMap(tokensMailedTo).concat(tokensMailedTo(ADMIN));
    expect(tokens).toHaveLength(mails.filter((m) => m.kind === 'sign_in').length);
    expect(new Set(tokens).size).toBe(tokens.length);

    const jobRuns = async () => Object.fromEntries((await sql.query<{ name: string; runs: string }>('select name, runs from background_job_runs')).rows.map((j) => [j.name, Number(j.runs)]));
    // Five-second jobs tick on both instances: the outbox job has run again (its second period
    // starts 5 s after its first run; allow a loaded machine up to 20 s)...
    let runs = await jobRuns();
    for (let i = 0; i < 100 && !(runs['mail-outbox']! > 1); i++) runs = (await Bun.sleep(200), await jobRuns());
    expect(runs['mail-outbox']).toBeGreaterThan(1);
    // ...but its runs were claimed once per period (4 s at least apart), not once per instance.
    const periods = (Date.now() - startedAt) / 4_000 + 1;
    // Hourly jobs: both instances asked to run them just after start; one did.
    expect(runs).toMatchObject({ 'prune-expired-rows': 1, 'remove-unattached-uploads': 1 });
    expect(runs['mail-outbox']).toBeLessThanOrEqual(periods);
  });
});
