import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli } from '#tests/helpers/cli.ts';
import { cliTargets, withFreshTarget } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext, type MadeRequest } from './operator-data.ts';

// every test runs the real binary, often several times: room for a loaded machine, whichever way the files are run
setDefaultTimeout(120_000);

// the model's messages, naming the field as the warehouse form labels it
const ACTIVE_ERROR = 'Active must be on or off (true or false).';
const ADDRESS_TOO_LONG = 'Address Line 1 can be at most 500 characters.';
const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('operator commands --help', () => {
  test('every new command shows an example', async () => {
    for (const args of [['requests', 'list'], ['requests', 'show'], ['warehouses', 'list'], ['warehouses', 'add'], ['warehouses', 'seed'], ['credits', 'export'], ['credits', 'retry']]) {
      const help = await runCli([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example');
      expect(help.stdout).toContain(`swappoints ${args.join(' ')}`);
    }
  });
});

describe.each(all.map((t) => [t.name, t] as const))('requests and warehouses on the %s database', (_name, target) => {
  const cli = (...args: string[]) => runCli(args, target.env);
  const made: Record<string, MadeRequest> = {};

  beforeAll(async () => {
    await withContext(target.env, async (ctx) => {
      made.pendingHp = await requestAt(ctx, 'pending');
      made.pendingCanon = await requestAt(ctx, 'pending', { productName: 'Canon PG-245 Black', brand: 'Canon' });
      for (const stage of ['declined', 'approved', 'shipped', 'received', 'completed'] as const) made[stage] = await requestAt(ctx, stage, { productName: `Part ${stage}` });
    });
  }, 120_000);

  test('requests list shows the pending requests as a table, newest first', async () => {
    const res = await cli('requests', 'list');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+DATE\s+CUSTOMER\s+PRODUCT\s+BRAND\s+CONDITION\s+STATUS\s+TRANSIT$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toStartWith(made.pendingCanon!.id);
    expect(lines[1]).toContain(made.pendingCanon!.email);
    expect(lines[1]).toMatch(/Canon PG-245 Black\s+Canon\s+like_new\s+pending\s+-/);
    expect(lines[2]).toStartWith(made.pendingHp!.id);
    expect(lines[3]).toBe('2 of 2 requests pending.');
    expect(res.stderr).toBe('');
  });

  test('requests list --json prints one API object per line and nothing else', async () => {
    const res = await cli('requests', 'list', '--status', 'all', '--json');
    expect(res.code).toBe(0);
    const items = jsonLines(res.stdout);
    expect(items).toHaveLength(7);
    expect(new Set(items.map((i) => i.id))).toEqual(new Set(Object.values(made).map((m) => m.id)));
    const byId = new Map(items.map((i) => [i.id, i]));
    for (const m of Object.values(made)) expect(byId.get(m.id)).toMatchObject({ userEmail: m.email, productName: m.productName });
    expect(byId.get(made.completed!.id)).toMatchObject({ status: 'completed', transitStatus: 'received', creditAmount: 500, currency: 'INR' });
    const times = items.map((i) => i.createdAt as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('requests list filters by status, tab and search, and limits', async () => {
    const ids = async (...args: string[]) => {
      const res = await cli('requests', 'list', ...args, '--json');
      expect(res.code).toBe(0);
      return jsonLines(res.stdout).map((i) => i.id);
    };
    expect(await ids('--status', 'declined')).toEqual([made.declined!.id]);
    expect(await ids('--tab', '1')).toEqual([made.approved!.id]);
    expect(await ids('--tab', '2')).toEqual([made.shipped!.id]);
    expect(await ids('--tab', '3')).toEqual([made.received!.id]);
    expect(await ids('--tab', '3', '--status', 'pending')).toEqual([]);
    expect(await ids('--search', 'CANON')).toEqual([made.pendingCanon!.id]);
    expect(await ids('--status', 'all', '--search', made.shipped!.email)).toEqual([made.shipped!.id]);
    expect(await ids('--status', 'all', '--limit', '2')).toHaveLength(2);
    const table = await cli('requests', 'list', '--status', 'all', '--limit', '2');
    expect(table.stdout).toEndWith('\n2 of 7 requests.\n');
    expect(table.stdout).toMatch(/Part completed\s+HP\s+like_new\s+completed\s+Received/);
    const tab1 = await cli('requests', 'list', '--tab', '1');
    expect(tab1.stdout).toMatch(/approved\s+Awaiting Shipping/);
    expect((await cli('requests', 'list', '--search', 'no such thing')).stdout).toBe('No requests pending matching "no such thing".\n');
  });

  test('requests list refuses a bad tab, status or limit with exit 2 and one line', async () => {
    for (const args of [['--tab', '4'], ['--tab', 'x'], ['--status', 'open'], ['--limit', '0'], ['--limit', 'ten']]) {
      const res = await cli('requests', 'list', ...args);
      expect(res.code).toBe(2);
      expect(res.stderr).toStartWith('swappoints: ');
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stdout).toBe('');
    }
  });

  test('requests show prints the detail and its timeline; --json is the admin API detail', async () => {
    const id = made.completed!.id;
    const text = await cli('requests', 'show', id);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Request     ${id}\n`);
    expect(text.stdout).toContain(`Status      completed\n`);
    expect(text.stdout).toContain(`<${made.completed!.email}>`);
    expect(text.stdout).toContain('Shipping    Blue Dart, tracking BD123456789IN, shipped 2026-11-20');
    expect(text.stdout).toContain('Credit      ₹500.00');
    const timeline = text.stdout.slice(text.stdout.indexOf('\nTimeline\n') + 10).trimEnd().split('\n');
    expect(timeline.map((l) => l.replace(/^  \S+ \S+  /, '').split(' by ')[0])).toEqual([
      'Request submitted', 'Request approved', 'Shipping details submitted', 'Item received', 'Credit assigned', 'Exchange completed',
    ]);
    expect(timeline[1]).toContain('by ops.admin@example.com (pending -> approved): Looks good');

    const json = await cli('requests', 'show', id, '--json');
    expect(json.code).toBe(0);
    const detail = JSON.parse(json.stdout);
    expect(detail).toMatchObject({ id, status: 'completed', customerEmail: made.completed!.email, creditAmount: 500 });
    const events = await withContext(target.env, (ctx) =>
      ctx.db.selectFrom('request_events').select(['type', 'actor_email']).where('request_id', '=', id).orderBy('id').execute(),
    );
    expect(detail.events.map((e: { type: string; actorEmail: string }) => [e.type, e.actorEmail])).toEqual(events.map((e) => [e.type, e.actor_email]));
  });

  test('requests show of an unknown id exits 2 with the API message', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await cli('requests', 'show', id);
      expect(res.code).toBe(2);
      expect(res.stderr).toBe('swappoints: Exchange request not found\n');
    }
  });

  // The two seed tests below count what they create and change: each has a database of its own.
  test('warehouses seed of warehouses.json creates three, the closed one inactive; a second run changes nothing', () => withFreshTarget(target.name, async (own) => {
    const cli = (...args: string[]) => runCli(args, own.env);
    const file = join(ROOT, 'tests/fixtures/warehouses.json');
    const first = await cli('warehouses', 'seed', file, '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      dryRun: false,
      created: ['Bengaluru Returns Hub', 'Delhi NCR Warehouse', 'Mumbai Overflow (closed)'],
      updated: [],
      unchanged: [],
      problems: [],
    });
    const again = await cli('warehouses', 'seed', file);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      'Unchanged: Bengaluru Returns Hub\nUnchanged: Delhi NCR Warehouse\nUnchanged: Mumbai Overflow (closed)\n0 created, 0 updated, 3 unchanged, 0 bad rows.\n',
    );
    const list = JSON.parse((await cli('warehouses', 'list', '--json')).stdout) as { name: string; isActive: boolean; addressLine2: string | null }[];
    const byName = new Map(list.map((w) => [w.name, w]));
    expect(byName.get('Mumbai Overflow (closed)')?.isActive).toBe(false);
    expect(byName.get('Delhi NCR Warehouse')).toMatchObject({ isActive: true, addressLine2: null });
    expect(byName.get('Bengaluru Returns Hub')).toMatchObject({ isActive: true, addressLine2: 'Phase 2' });
    const table = await cli('warehouses', 'list');
    expect(table.stdout).toMatch(/^NAME\s+CITY\s+STATE\s+POSTAL CODE\s+COUNTRY\s+CONTACT\s+ACTIVE\s+ID\n/);
    expect(table.stdout).toMatch(/Mumbai Overflow \(closed\)\s+Bhiwandi\s+Maharashtra\s+421302\s+India\s+no\s+[0-9a-f-]{36}\n/);
  }));

  test('warehouses seed --dry-run says what would change and writes nothing; the real run then does it', () => withFreshTarget(target.name, async (own) => {
    const cli = (...args: string[]) => runCli(args, own.env);
    expect((await cli('warehouses', 'seed', join(ROOT, 'tests/fixtures/warehouses.json'))).code).toBe(0);
    const file = join(own.env.DATA_DIR!, 'changed.json');
    const rows = JSON.parse(await Bun.file(join(ROOT, 'tests/fixtures/warehouses.json')).text());
    rows[1].city = 'Gurgaon';
    rows[2].name = 'MUMBAI OVERFLOW (CLOSED)'; // same warehouse, whatever the case
    rows.push({ name: 'Chennai Depot', addressLine1: '4 Ambattur Estate', city: 'Chennai', state: 'Tamil Nadu', postalCode: '600058', country: 'India' });
    writeFileSync(file, JSON.stringify(rows, null, 2));
    const before = (await cli('warehouses', 'list', '--json')).stdout;
    const dry = await cli('warehouses', 'seed', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      [
        'Would create: Chennai Depot',
        'Would update: Delhi NCR Warehouse (city)',
        'Would update: MUMBAI OVERFLOW (CLOSED) (name)',
        'Unchanged: Bengaluru Returns Hub',
        'Dry run, nothing written: 1 created, 2 updated, 1 unchanged, 0 bad rows.',
        '',
      ].join('\n'),
    );
    expect((await cli('warehouses', 'list', '--json')).stdout).toBe(before);
    const real = JSON.parse((await cli('warehouses', 'seed', file, '--json')).stdout);
    expect(real).toMatchObject({ dryRun: false, created: ['Chennai Depot'], unchanged: ['Bengaluru Returns Hub'] });
    const list = JSON.parse((await cli('warehouses', 'list', '--json')).stdout) as { name: string; city: string; isActive: boolean }[];
    expect(list.find((w) => w.name === 'Delhi NCR Warehouse')?.city).toBe('Gurgaon');
    expect(list.find((w) => w.name === 'MUMBAI OVERFLOW (CLOSED)')?.isActive).toBe(false);
    expect(list.filter((w) => w.name.toLowerCase() === 'mumbai overflow (closed)')).toHaveLength(1);
    expect(JSON.parse((await cli('warehouses', 'seed', file, '--json')).stdout)).toMatchObject({ created: [], updated: [] });
  }));

  test('warehouses seed of warehouses-with-errors.csv keeps the good row and reports lines 3 and 4 with their fields (exit 2)', async () => {
    const file = join(ROOT, 'tests/fixtures/warehouses-with-errors.csv');
    const res = await cli('warehouses', 'seed', file, '--json');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`swappoints: 2 bad rows in ${file}; the good rows were written\n`);
    expect(JSON.parse(res.stdout)).toEqual({
      dryRun: false,
      created: ['Kolkata East'],
      updated: [],
      unchanged: [],
      problems: [
        { line: 3, fields: ['addressLine1', 'postalCode'], message: 'Please fill in all required fields: Address Line 1, Postal Code' },
        { line: 4, fields: ['isActive'], message: ACTIVE_ERROR },
      ],
    });
    const text = await cli('warehouses', 'seed', file);
    expect(text.stdout).toContain('Bad row, line 3 [addressLine1, postalCode]: Please fill in all required fields: Address Line 1, Postal Code\n');
    expect(text.stdout).toContain(`Bad row, line 4 [isActive]: ${ACTIVE_ERROR}\n`);
    expect(text.stdout).toContain('Unchanged: Kolkata East\n');
    const names = (JSON.parse((await cli('warehouses', 'list', '--json')).stdout) as { name: string }[]).map((w) => w.name);
    expect(names).toContain('Kolkata East');
    expect(names).not.toContain('Hyderabad South');
    expect(names).not.toContain('Kochi Port');
  });

  test('warehouses seed of a JSON array reports a bad item by index and line; isActive must be a real boolean', async () => {
    const file = join(target.env.DATA_DIR!, 'bad.json');
    writeFileSync(
      file,
      [
        '[',
        '  { "name": "Jaipur Hub", "addressLine1": "1 MI Road", "city": "Jaipur", "state": "Rajasthan", "postalCode": "302001", "country": "India" },',
        '  {',
        '    "name": "Jaipur Hub 2", "addressLine1": "2 MI Road", "city": "Jaipur", "state": "Rajasthan", "postalCode": "302001", "country": "India",',
        '    "isActive": "true"',
        '  },',
        '  { "name": "jaipur hub", "addressLine1": "3 MI Road", "city": "Jaipur", "state": "Rajasthan", "postalCode": "302001", "country": "India" },',
        '  { "name": "Ajmer Hub", "addressLine1": "x".repeat(1) }',
        ']',
      ]
        .join('\n')
        .replace('"x".repeat(1)', `"${'x'.repeat(501)}"`),
    );
    const res = await cli('warehouses', 'seed', file, '--dry-run', '--json');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`swappoints: 3 bad rows in ${file}; nothing was written\n`);
    const report = JSON.parse(res.stdout);
    expect(report.created).toEqual(['Jaipur Hub']);
    expect(report.problems).toEqual([
      { line: 3, index: 1, fields: ['isActive'], message: ACTIVE_ERROR },
      { line: 7, index: 2, fields: ['name'], message: 'The name jaipur hub is used again (first on line 2); names are unique, whatever their case' },
      { line: 8, index: 3, fields: ['addressLine1'], message: ADDRESS_TOO_LONG },
    ]);
    expect((await cli('warehouses', 'list', '--json')).stdout).not.toContain('Jaipur');
  });

  test('warehouses seed: a missing file or a file that is not JSON exits 2', async () => {
    const missing = await cli('warehouses', 'seed', 'no-such-file.csv');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('swappoints: file not found: no-such-file.csv\n');
    const broken = join(target.env.DATA_DIR!, 'broken.json');
    writeFileSync(broken, '[{"name": "x",]');
    const bad = await cli('warehouses', 'seed', broken);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith(`swappoints: ${broken} is not valid JSON`);
    writeFileSync(broken, '{"name": "x"}');
    expect((await cli('warehouses', 'seed', broken)).stderr).toBe(`swappoints: ${broken} must hold a JSON array of warehouses\n`);
  });

  test('warehouses add takes every field as a flag, --inactive included, with the API messages', async () => {
    const flags = ['--address-line1', 'Survey 12, Hinjewadi', '--address-line2', 'Phase 1', '--city', 'Pune', '--state', 'Maharashtra', '--postal-code', '411057', '--country', 'India'];
    const res = await cli('warehouses', 'add', '--name', 'Pune Returns Desk', ...flags, '--contact-person', 'Ravi', '--contact-phone', '+91 20 4000 1200', '--inactive', '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      name: 'Pune Returns Desk', addressLine1: 'Survey 12, Hinjewadi', addressLine2: 'Phase 1', city: 'Pune', state: 'Maharashtra',
      postalCode: '411057', country: 'India', contactPerson: 'Ravi', contactPhone: '+91 20 4000 1200', isActive: false,
    });
    const text = await cli('warehouses', 'add', '--name', 'Nashik Desk', ...flags);
    expect(text.stdout).toMatch(/^Warehouse Nashik Desk created: [0-9a-f-]{36}\n$/);
    const missing = await cli('warehouses', 'add', '--name', 'Half Desk', '--address-line1', '1 Road');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('swappoints: Please fill in all required fields: City, State, Postal Code, Country\n');
    const taken = await cli('warehouses', 'add', '--name', 'PUNE returns desk', ...flags);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe('swappoints: A warehouse named PUNE returns desk already exists\n');
  });
});
