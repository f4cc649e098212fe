import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { requestAt, withContext } from './operator-data.ts';

setDefaultTimeout(120_000);

const all = await cliTargets();
const outDir = mkdtempSync(join(tmpdir(), 'swappoints-privacy-cli-'));
afterAll(async () => {
  for (const t of all) await t.cleanup();
  rmSync(outDir, { recursive: true, force: true });
});

/** Issue 25: `swappoints privacy export` and `privacy erase`, with their exit codes. */
describe.each(all.map((t) => [t.name, t] as const))('swappoints privacy on the %s database', (_name, target) => {
  const cli = (...args: string[]) => runCli(args, { ...target.env, LOG_LEVEL: 'error' });

  test('export writes the ZIP of one customer; erase --dry-run changes nothing, erase --json erases; a second erase or an unknown email exits 2 with a sentence', async () => {
    const made = await withContext(target.env, (ctx) => requestAt(ctx, 'completed', { productName: 'Laser Toner CLI' }));
    const out = join(outDir, `${target.name}.zip`);

    const exported = await cli('privacy', 'export', made.email, '--out', out);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`the data of ${made.email} and 1 photo`);
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(readFileSync(out)))['swappoints-data.json']!));
    expect(data.exchange_requests.map((r: { productName: string }) => r.productName)).toEqual(['Laser Toner CLI']);
    expect(data.images).toHaveLength(1);

    const dry = await cli('privacy', 'erase', made.email, '--dry-run', '--json');
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan).toMatchObject({ email: made.email, dryRun: true, photos: 1 });
    expect(plan.tables.find((t: { table: string }) => t.table === 'users').rows).toBe(1);

    const erased = await cli('privacy', 'erase', made.email, '--json');
    expect(erased.code).toBe(0);
    const report = JSON.parse(erased.stdout);
    expect(report).toMatchObject({ dryRun: false, photos: 1, filesRemoved: true, pseudonym: plan.pseudonym });

    const again = await cli('privacy', 'erase', made.email);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`No customer with the email ${made.email} is held here: there is nothing to erase or export.`);
    const unknown = await cli('privacy', 'export', 'nobody.at.all@example.com', '--out', join(outDir, 'nobody.zip'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No customer with the email nobody.at.all@example.com is held here');
    expect(existsSync(join(outDir, 'nobody.zip'))).toBe(false);
  });

  test('erase is refused (exit 2) with the reason while a parcel is on its way', async () => {
    const made = await withContext(target.env, (ctx) => requestAt(ctx, 'shipped', { productName: 'Drum In Transit' }));
    const res = await cli('privacy', 'erase', made.email);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('A parcel is on its way for your request "Drum In Transit"');
  });

  test('--help teaches the commands with examples', async () => {
    const help = await cli('privacy', 'erase', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--dry-run');
    expect(help.stdout).toContain('$ swappoints privacy erase asha.rao@example.com --dry-run');
  });
});
