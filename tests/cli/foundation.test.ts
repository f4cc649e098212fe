import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDataDir } from '#tests/helpers/cli.ts';
import { migrations } from '#migrations/index.ts';
import { cliTargets, withFreshTarget } from '#tests/helpers/cli-targets.ts';

// demo seed loads the whole demo shop (~5 CPU-s): room for a loaded machine, as the other CLI files give
setDefaultTimeout(120_000);

const SAMPLE = join(ROOT, 'api/modules/demo/data/customers.csv');

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

describe('swappoints --help', () => {
  test('every command teaches with an example', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['serve', 'migrate', 'customers', 'admin', 'mail', 'demo']) expect(top.stdout).toContain(command);
    for (const args of [['migrate'], ['customers', 'add'], ['customers', 'import'], ['customers', 'list'], ['admin', 'grant'], ['admin', 'revoke'], ['mail', 'list'], ['demo', 'seed'], ['serve'], ['sessions', 'revoke']]) {
      const help = await runCli([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example');
    }
  });

  test('an unknown command or a missing argument exits 2 with one line on stderr', async () => {
    const unknown = await runCli(['nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toStartWith('swappoints: ');
    const missing = await runCli(['customers', 'add']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'email'");
  });

  test('the real binary, as an operator runs it: migrate on a new DATA_DIR creates the embedded database (exit 0, every migration applied); an unknown command exits 2', async () => {
    const dataDir = tempDataDir();
    const first = await runCli(['migrate', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined }, { subprocess: true });
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(first.stdout)).toMatchObject({ applied: Object.keys(migrations), pending: [] });
    const unknown = await runCli(['nope'], {}, { subprocess: true });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toStartWith('swappoints: ');
  });

  test('a bad setting stops with a message naming it', async () => {
    const res = await runCli(['migrate'], { PORT: 'eighty', DATA_DIR: tempDataDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('PORT');
  });
});

describe.each(all.map((t) => [t.name, t] as const))('CLI on the %s database', (_name, target) => {
  const cli = (...args: string[]) => runCli(args, target.env);

  test('migrate brings the schema up to date, and again is a no-op', async () => {
    const first = await cli('migrate', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).pending).toEqual([]);
    const second = await cli('migrate');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Schema is up to date');
  });

  test("customers import keeps the good rows of the shop's export and reports each bad one with its line", async () => {
    // an empty database of its own: the counts below assume none of these customers exist yet
    await withFreshTarget(target.name, async (own) => {
      const cli = (...args: string[]) => runCli(args, own.env);
      const res = await cli('customers', 'import', SAMPLE, '--json');
      expect(res.code).toBe(0);
      const report = JSON.parse(res.stdout);
      expect(report.created).toBe(7);
      expect(report.problems).toEqual([
        { line: 8, message: 'no email address' },
        { line: 9, message: 'invalid email address "not-an-email"' },
        { line: 10, message: 'same email as line 2 (asha.rao@example.com): one customer, kept line 2' },
      ]);
      const again = JSON.parse((await cli('customers', 'import', SAMPLE, '--json')).stdout);
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 7 });

      const list = JSON.parse((await cli('customers', 'list', '--json')).stdout) as { email: string; firstName: string; lastName: string; shopCustomerId: string; address: Record<string, string | null> | null }[];
      expect(list.map((c) => c.email)).toContain('vikram.singh@example.com'); // mixed case in the file
      expect(list.find((c) => c.email === 'kiran.patel@example.com')).toMatchObject({ lastName: 'Patel, Jr.', shopCustomerId: '7301001010' });
      expect(list.find((c) => c.email === 'zoe.dsouza@example.com')?.firstName).toBe('Zoë');
      expect(list.find((c) => c.email === 'rahul.sharma@example.com')?.firstName).toBe('राहुल');
      expect(list.find((c) => c.email === 'priya@example.com')?.lastName).toBeNull();

      // the default addresses: state names from the province codes, zips and phones without the export's ', the
      // customer's Phone when the address has none; the bad rows' addresses are not kept (line 10's repeat does
      // not wipe line 2's), and a customer with empty address columns has none
      const address = (email: string) => list.find((c) => c.email === email)?.address;
      expect(address('asha.rao@example.com')).toEqual({ addressLine1: '14 MG Road', addressLine2: null, city: 'Bengaluru', state: 'Karnataka', postalCode: '560001', countryCode: 'IN', phone: '+919800000001' });
      expect(address('vikram.singh@example.com')).toEqual({ addressLine1: 'Shop 3, Karol Bagh', addressLine2: null, city: 'New Delhi', state: 'Delhi', postalCode: '110005', countryCode: 'IN', phone: '+919800000002' });
      expect(address('meera.iyer@example.com')).toEqual({ addressLine1: '22 Anna Salai', addressLine2: 'Flat 4B', city: 'Chennai', state: 'Tamil Nadu', postalCode: '600002', countryCode: 'IN', phone: null });
      expect(address('rahul.sharma@example.com')).toMatchObject({ city: 'Jaipur', state: 'Rajasthan', postalCode: '302006' });
      expect(address('kiran.patel@example.com')).toMatchObject({ addressLine1: '9 Ring Road', state: 'Gujarat', postalCode: '380001' });
      expect(address('priya@example.com')).toBeNull();
      expect(list.some((c) => c.address?.addressLine1 === '1 Unknown St')).toBe(false);

      // an address changed in the shop is an update; one emptied is removed
      const edited = join(own.env.DATA_DIR!, 'edited.csv');
      writeFileSync(edited, readFileSync(SAMPLE, 'utf8').replace('22 Anna Salai,Flat 4B,Chennai,TN', '5 Besant Road,,Chennai,TN').replace(",7 Hill Road,Bandra West,Mumbai,MH,IN,'400050,", ',,,,,,,'));
      expect(JSON.parse((await cli('customers', 'import', edited, '--json')).stdout)).toMatchObject({ created: 0, updated: 2, unchanged: 5 });
      const after = JSON.parse((await cli('customers', 'list', '--json')).stdout) as typeof list;
      expect(after.find((c) => c.email === 'meera.iyer@example.com')?.address).toMatchObject({ addressLine1: '5 Besant Road', addressLine2: null });
      expect(after.find((c) => c.email === 'zoe.dsouza@example.com')?.address).toBeNull();
    });
  });

  test("the export saved with a byte-order mark and CRLF line ends keeps the same addresses", async () => {
    await withFreshTarget(target.name, async (own) => {
      const cli = (...args: string[]) => runCli(args, own.env);
      const crlf = join(own.env.DATA_DIR!, 'bom-crlf.csv');
      writeFileSync(crlf, `\uFEFF${readFileSync(SAMPLE, 'utf8').replace(/\n/g, '\r\n')}`);
      expect(JSON.parse((await cli('customers', 'import', crlf, '--json')).stdout)).toMatchObject({ created: 7 });
      const list = JSON.parse((await cli('customers', 'list', '--json')).stdout) as { email: string; address: Record<string, string | null> | null }[];
      expect(list.find((c) => c.email === 'kiran.patel@example.com')?.address).toEqual({ addressLine1: '9 Ring Road', addressLine2: null, city: 'Ahmedabad', state: 'Gujarat', postalCode: '380001', countryCode: 'IN', phone: null });
      expect(list.find((c) => c.email === 'zoe.dsouza@example.com')?.address).toMatchObject({ addressLine2: 'Bandra West', state: 'Maharashtra', postalCode: '400050' });
    });
  });

  test('a CSV saved with a byte-order mark and CRLF line ends imports with clean emails', async () => {
    const res = await cli('customers', 'import', join(ROOT, 'tests/fixtures/shop-customers-bom-crlf.csv'), '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ created: 2, problems: [] });
    const list = JSON.parse((await cli('customers', 'list', '--search', 'nair', '--json')).stdout);
    expect(list).toEqual([{ email: 'leela.nair@example.com', firstName: 'Leela', lastName: 'Nair', shopCustomerId: '7301002001', address: null }]);
  });

  test('customers import of a missing file exits 2; of a file without an Email column exits 2', async () => {
    const missing = await cli('customers', 'import', 'no-such-file.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('swappoints: file not found: no-such-file.csv\n');
    const wrong = join(target.env.DATA_DIR!, 'wrong.csv');
    writeFileSync(wrong, 'name,city\nA,B\n');
    const bad = await cli('customers', 'import', wrong);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no Email column');
  });

  test('customers add, admin grant/revoke and list', async () => {
    expect((await cli('customers', 'add', 'New.Person@Example.com', '--name', 'New Person')).stdout).toBe('Customer new.person@example.com created.\n');
    expect((await cli('customers', 'add', 'not-an-email')).code).toBe(2);
    expect((await cli('admin', 'grant', 'ops@example.com')).stdout).toBe('ops@example.com is now an admin.\n');
    expect((await cli('admin', 'grant', 'ops@example.com')).stdout).toBe('ops@example.com was already an admin.\n');
    expect(JSON.parse((await cli('admin', 'list', '--json')).stdout)).toContainEqual({ email: 'ops@example.com', name: null });
    expect((await cli('admin', 'revoke', 'ops@example.com')).stdout).toBe('ops@example.com is no longer an admin.\n');
    expect(JSON.parse((await cli('admin', 'list', '--json')).stdout)).not.toContainEqual({ email: 'ops@example.com', name: null });
  });

  test('admin revoke of an email listed in ADMIN_EMAILS exits 2 and says to remove it there', async () => {
    const env = { ...target.env, ADMIN_EMAILS: 'lead@example.com, boss@example.com' };
    expect((await runCli(['admin', 'grant', 'boss@example.com'], env)).code).toBe(0);
    const res = await runCli(['admin', 'revoke', 'Boss@Example.com'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('swappoints: boss@example.com is listed in ADMIN_EMAILS, so it would be an admin again at the next sign-in: remove it from ADMIN_EMAILS (and restart the server), then run this again.\n');
    expect(JSON.parse((await runCli(['admin', 'list', '--json'], env)).stdout)).toContainEqual({ email: 'boss@example.com', name: null });
  });

  test('demo seed loads the demo shop once; a second run changes nothing', async () => {
    // an empty database of its own: what a first seed loads depends on nothing being there yet
    await withFreshTarget(target.name, async (own) => {
      const cli = (...args: string[]) => runCli(args, own.env);
      const first = JSON.parse((await cli('demo', 'seed', '--json')).stdout);
      expect(first).toMatchObject({ seeded: true, warehouses: 3, requests: 7, admin: 'admin@swappoints.demo' });
      const second = JSON.parse((await cli('demo', 'seed', '--json')).stdout);
      expect(second).toMatchObject({ seeded: true, customers: 0, warehouses: 0, requests: 0 });
      expect(JSON.parse((await cli('demo', 'seed', '--if-empty', '--json')).stdout)).toEqual({ seeded: false });
    });
  });

  test('mail list --json is an array (empty when nothing was sent)', async () => {
    const res = await cli('mail', 'list', '--to', 'nobody@example.com', '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([]);
    expect((await cli('mail', 'list', '--limit', 'zero')).code).toBe(2);
  });
});
