import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTarget, cliTargets, cloneTarget, type CliTarget } from '#tests/helpers/cli-targets.ts';
import { SHOPIFY_TOKEN, shopifyEnv } from '#tests/helpers/fake-shopify-backend.ts';
import { startFakeShopify, type FakeShopify } from '#tests/helpers/fake-shopify.ts';
import { requestAt, uniqueEmail, withContext } from './operator-data.ts';

// the real binary against a database and a fake Shopify on real sockets: room for a loaded machine
setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

interface Report {
  shop: string;
  since: string | null;
  customers: number;
  ledgerCredits: number;
  shopCredits: number;
  matched: number;
  issues: { kind: string; customerEmail: string; ledgerId: number | null; transactionId: string | null; ledgerAmount: number | null; shopAmount: number | null }[];
}

describe.each(all.map((t) => [t.name, t] as const))('credits reconcile against Shopify (%s database)', (_name, target) => {
  let fake: FakeShopify;
  let env: Record<string, string | undefined>;
  const people = { matched: '', different: '', missing: '' };
  let missingLedgerId = 0;
  let differentTx = '';
  let extraTx = '';

  beforeAll(async () => {
    fake = await startFakeShopify({ token: SHOPIFY_TOKEN });
    env = {
      ...target.env,
      ...shopifyEnv(fake),
      SHOPIFY_TIMEOUT_MS: '5000',
    };
    for (const key of Object.keys(people) as (keyof typeof people)[]) {
      people[key] = uniqueEmail(`reconcile-${key}`);
      fake.addCustomer(people[key]);
    }
    await withContext(env, async (ctx) => {
      await requestAt(ctx, 'credited', { email: people.matched, credit: 500 });
      await requestAt(ctx, 'credited', { email: people.different, credit: 700 });
      // the shop refuses this one: it stays in the ledger only
      fake.inject({ kind: 'userError', code: 'CREDIT_LIMIT_EXCEEDED', message: 'The credit limit has been exceeded' }, 'SwapPointsCredit');
      await requestAt(ctx, 'credited', { email: people.missing, credit: 300 });
      const missing = await ctx.db
        .selectFrom('credit_ledger as l')
        .innerJoin('users as u', 'u.id', 'l.user_id')
        .select(['l.id', 'l.push_status'])
        .where('u.email', '=', people.missing)
        .executeTakeFirstOrThrow();
      expect(missing.push_status).toBe('failed');
      missingLedgerId = missing.id;
    });
    // the shop's books change behind SwapPoints' back: one credit holds another amount…
    const different = fake.transactionsOf(fake.customerId(people.different)!)[0]!;
    different.cents = 65_000;
    differentTx = different.id;
    // …and a customer gets a credit no ledger row holds
    extraTx = fake.creditDirectly(fake.customerId(people.matched)!, 200).id;
  });
  afterAll(() => fake.close());

  test('lists the missing, the extra and the different credit, and exits 1', async () => {
    const res = await runCli(['credits', 'reconcile', '--json'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('1 missing, 1 extra, 1 different');
    const report = JSON.parse(res.stdout) as Report;
    expect(report).toMatchObject({ shop: 'shopify', since: null, customers: 3, ledgerCredits: 3, shopCredits: 3, matched: 1 });
    const sorted = [...report.issues].sort((a, b) => a.kind.localeCompare(b.kind));
    expect(sorted).toEqual([
      expect.objectContaining({ kind: 'different', customerEmail: people.different, transactionId: differentTx, ledgerAmount: 700, shopAmount: 650 }),
      expect.objectContaining({ kind: 'extra', customerEmail: people.matched, ledgerId: null, transactionId: extraTx, ledgerAmount: null, shopAmount: 200 }),
      expect.objectContaining({ kind: 'missing', customerEmail: people.missing, ledgerId: missingLedgerId, transactionId: null, ledgerAmount: 300, shopAmount: null }),
    ]);
  });

  test('prints a table of the issues and a summary line for a person', async () => {
    const res = await runCli(['credits', 'reconcile'], env);
    expect(res.code).toBe(1);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^issue\s+customer\s+ledger id\s+transaction/);
    expect(lines.filter((l) => /^(missing|extra|different)\s/.test(l))).toHaveLength(3);
    expect(res.stdout).toContain(extraTx);
    expect(lines.at(-1)).toBe('3 ledger credits and 3 shop credits for 3 customers (shopify shop): 1 matched, 3 issues.');
  });

  test('--since leaves out what came before; nothing since then is nothing off (exit 0)', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await runCli(['credits', 'reconcile', '--since', tomorrow, '--json'], env);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ since: `${tomorrow}T00:00:00.000Z`, ledgerCredits: 0, shopCredits: 0, issues: [] });
  });

  test('a shop that cannot be reached is a failure (exit 1), never "all matched"', async () => {
    const res = await runCli(['credits', 'reconcile'], { ...env, SHOPIFY_ADMIN_URL: 'http://127.0.0.1:9/graphql.json', SHOPIFY_TIMEOUT_MS: '1000' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error connecting to Shopify');
    expect(res.stdout).not.toContain('matched');
  });

  test('bad usage exits 2', async () => {
    const res = await runCli(['credits', 'reconcile', '--since', 'yesterday'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--since must be a date');
  });
});

describe('credits reconcile on the embedded shop', () => {
  // the same two credits for each test: the one that adds an unfinished push does it in a copy of its own
  let seeded: CliTarget;
  const copies: CliTarget[] = [];
  let stuck = 0;
  beforeAll(async () => {
    seeded = await cliTarget('embedded');
    seeded.env = { ...seeded.env, SHOP_BACKEND: 'embedded' };
    await withContext(seeded.env, async (ctx) => {
      await requestAt(ctx, 'credited', { credit: 400 });
      await requestAt(ctx, 'completed', { credit: 900 });
    });
  });
  afterAll(async () => {
    for (const t of [seeded, ...copies]) await t.cleanup();
  });

  test('balances that match the ledger: exit 0', async () => {
    const res = await runCli(['credits', 'reconcile', '--json'], seeded.env);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ shop: 'embedded', customers: 2, ledgerCredits: 2, matched: 2, issues: [] });
  });

  test('a credit whose push never finished is missing from the shop: exit 1', async () => {
    const own = await cloneTarget(seeded);
    copies.push(own);
    const env = own.env;
    await withContext(env, async (ctx) => {
      const made = await requestAt(ctx, 'received', {});
      // as a server stopped between committing the credit and pushing it leaves the row
      const row = await ctx.db
        .insertInto('credit_ledger')
        .values({ user_id: (await ctx.db.selectFrom('users').select('id').where('email', '=', made.email).executeTakeFirstOrThrow()).id, exchange_request_id: made.id, type: 'exchange_credit', amount: '250', currency: 'INR', next_push_at: new Date(Date.now() + 3_600_000) })
        .returning('id')
        .executeTakeFirstOrThrow();
      stuck = row.id;
    });
    const res = await runCli(['credits', 'reconcile', '--json'], env);
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as Report;
    expect(report).toMatchObject({ ledgerCredits: 3, matched: 2 });
    expect(report.issues).toEqual([expect.objectContaining({ kind: 'missing', ledgerId: stuck, ledgerAmount: 250 })]);
  });
});
