import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '#tests/helpers/cli.ts';
import { cliKinds, withFreshTarget, type CliTarget } from '#tests/helpers/cli-targets.ts';

// every test runs the real binary several times: room for a loaded machine
setDefaultTimeout(120_000);


const files = mkdtempSync(join(tmpdir(), 'swappoints-guide-'));
const file = (name: string, text: string) => {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('valuation and campaigns --help', () => {
  test('every command shows an example', async () => {
    for (const args of [['valuation', 'import'], ['valuation', 'list'], ['valuation', 'quote'], ['valuation', 'rules', 'add'], ['valuation', 'minimum'], ['campaigns', 'list'], ['campaigns', 'add'], ['campaigns', 'end']]) {
      const help = await runCli([...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`swappoints ${args.join(' ')}`);
    }
  });
});

type Cli = (...args: string[]) => ReturnType<typeof runCli>;

/** The guide the quote and campaign tests price against: HP 88a at ₹3,400 and Canon PG-745 at ₹1,100. */
async function importGuide(cli: Cli) {
  const guide = file(
    `seed-${crypto.randomUUID()}.json`,
    JSON.stringify([
      { brand: 'HP', model: '88a', name: 'HP 88A Black Toner', baseValue: 3400 },
      { brand: 'Canon', model: 'PG-745', name: 'Canon PG-745, black', baseValue: 1100 },
    ]),
  );
  const imported = await cli('valuation', 'import', guide);
  expect([imported.code, imported.stderr]).toEqual([0, '']);
}

describe.each(cliKinds())('valuation and campaigns on the %s database', (kind) => {
  // each test runs against a database of its own, so none depends on what another left behind
  const onFresh = (body: (cli: Cli) => Promise<void>) => () =>
    withFreshTarget(kind, (target: CliTarget) => body((...args: string[]) => runCli(args, target.env)));

  test('import: CSV creates, bad rows are reported with line and field (exit 2), a second run changes nothing; JSON updates by brand + model', onFresh(async (cli) => {
    const csv = file(
      'guide.csv',
      'brand,model,name,baseValue,active\r\nHP,88A,HP 88A Black Toner,3200,\r\nCanon,PG-745,"Canon PG-745, black",1100,true\r\nHP,,No model,10,\r\nBrother,DR-2365,Brother drum,lots,\r\nhp,88a,Again,1,\r\n',
    );
    const dry = await cli('valuation', 'import', csv, '--dry-run');
    expect(dry.code).toBe(2);
    expect(dry.stdout).toContain('Would create: HP 88A');
    expect(dry.stdout).toContain('Bad row, line 4 [model]: Please fill in all required fields: Model pattern');
    expect(dry.stdout).toContain('Bad row, line 5 [baseValue]: The base value must be a number');
    expect(dry.stdout).toContain('Bad row, line 6 [brand, model]: hp 88a is listed again (first on line 2)');
    expect(dry.stdout).toContain('Dry run, nothing written: 2 created, 0 updated, 0 unchanged, 3 bad rows.');
    expect((await cli('valuation', 'list', '--json')).stdout).toBe('[]\n');

    const first = await cli('valuation', 'import', csv);
    expect(first.code).toBe(2);
    expect(first.stderr).toBe(`swappoints: 3 bad rows in ${csv}; the good rows were written\n`);
    const again = await cli('valuation', 'import', csv, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ dryRun: false, created: [], updated: [], unchanged: ['HP 88A', 'Canon PG-745'] });

    const json = file('guide.json', JSON.stringify([{ brand: 'HP', model: '88a', name: 'HP 88A Black Toner', baseValue: 3400 }, { brand: 'Samsung', model: 'MLT-D111S', name: 'Samsung toner', baseValue: '3300', active: false }], null, 2));
    const update = await cli('valuation', 'import', json);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('Updated: HP 88a (model, baseValue)');
    expect(update.stdout).toContain('Created: Samsung MLT-D111S');
    const list = JSON.parse((await cli('valuation', 'list', '--json')).stdout);
    expect(list.map((e: { brand: string; model: string; baseValue: number; isActive: boolean }) => [e.brand, e.model, e.baseValue, e.isActive])).toEqual([
      ['Canon', 'PG-745', 1100, true],
      ['HP', '88a', 3400, true],
      ['Samsung', 'MLT-D111S', 3300, false],
    ]);
    const table = await cli('valuation', 'list');
    expect(table.stdout).toMatch(/HP\s+88a\s+HP 88A Black Toner\s+₹3,400\s+yes/);
  }));

  test('quote gives the endpoint’s answer; rules and the minimum refuse; a bad condition exits 2', onFresh(async (cli) => {
    await importGuide(cli);
    const quote = await cli('valuation', 'quote', '--brand', 'hp', '--product', 'HP 88A Toner Cartridge', '--condition', 'good', '--json');
    expect(JSON.parse(quote.stdout)).toEqual({ eligible: true, estimate: 2040, bonus: 0, currency: 'INR', match: { id: expect.any(Number), brand: 'HP', model: '88a', name: 'HP 88A Black Toner' } });
    expect((await cli('valuation', 'quote', '--brand', 'HP', '--product', 'HP 88A', '--condition', 'good')).stdout).toBe('₹2,040 (HP 88a: HP 88A Black Toner)\n');
    expect((await cli('valuation', 'quote', '--brand', 'Epson', '--product', 'Epson 003', '--condition', 'good')).stdout).toBe('No guide entry matches: valued after inspection.\n');
    const bad = await cli('valuation', 'quote', '--brand', 'HP', '--product', 'x', '--condition', 'excellent');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Please choose a valid condition');

    const rule = await cli('valuation', 'rules', 'add', '--brand', 'Canon', '--model', 'pg-745', '--reason', 'We no longer take PG-745 cartridges.');
    expect(rule.code).toBe(0);
    expect((await cli('valuation', 'rules', 'add', '--brand', 'canon', '--model', 'PG-745', '--reason', 'again')).code).toBe(2);
    expect(JSON.parse((await cli('valuation', 'quote', '--brand', 'Canon', '--product', 'Canon PG-745 XL', '--condition', 'new', '--json')).stdout)).toEqual({
      eligible: false,
      reason: 'We no longer take PG-745 cartridges.',
    });
    expect((await cli('valuation', 'minimum', '1000')).stdout).toBe('Minimum trade-in value: ₹1,000\n');
    expect(JSON.parse((await cli('valuation', 'quote', '--brand', 'HP', '--product', 'HP 88A', '--condition', 'poor', '--json')).stdout)).toEqual({
      eligible: false,
      reason: "We can't take this item: it is worth less than ₹1,000.",
    });
    expect((await cli('valuation', 'minimum', '-5')).code).toBe(2);
    expect((await cli('valuation', 'minimum', '0')).code).toBe(0);
  }));

  test('campaigns add (percent or amount, one brand or all), list, and end; the bonus shows in the quote only while running', onFresh(async (cli) => {
    await importGuide(cli);
    expect((await cli('campaigns', 'add', '--name', 'Both', '--percent', '5', '--amount', '5', '--from', day(0), '--until', day(1))).code).toBe(2);
    expect((await cli('campaigns', 'add', '--name', 'Backwards', '--percent', '5', '--from', day(3), '--until', day(1))).code).toBe(2);
    const added = await cli('campaigns', 'add', '--name', 'HP week', '--amount', '150', '--brand', 'HP', '--from', day(-1), '--until', day(6), '--json');
    expect(added.code).toBe(0);
    const campaign = JSON.parse(added.stdout);
    expect(campaign).toMatchObject({ name: 'HP week', kind: 'amount', value: 150, brand: 'HP', running: true });
    await cli('campaigns', 'add', '--name', 'Spring', '--percent', '20', '--from', day(30), '--until', day(40));
    const list = await cli('campaigns', 'list');
    expect(list.stdout).toMatch(/HP week\s+₹150 bonus\s+HP\s+.*running/);
    expect(list.stdout).toMatch(/Spring\s+20% bonus\s+all brands\s+.*upcoming/);
    expect(JSON.parse((await cli('valuation', 'quote', '--brand', 'HP', '--product', 'HP 88A', '--condition', 'new', '--json')).stdout).bonus).toBe(150);
    const ended = await cli('campaigns', 'end', String(campaign.id));
    expect(ended.code).toBe(0);
    expect(JSON.parse((await cli('valuation', 'quote', '--brand', 'HP', '--product', 'HP 88A', '--condition', 'new', '--json')).stdout).bonus).toBe(0);
    expect((await cli('campaigns', 'list', '--json')).stdout).toContain('"running":false');
    const missing = await cli('campaigns', 'end', '999999');
    expect([missing.code, missing.stderr]).toEqual([2, 'swappoints: Campaign not found\n']);
  }));
});
