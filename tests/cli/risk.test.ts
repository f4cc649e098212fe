import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { saveUpload } from '#api/modules/images/service.ts';
import { createRequest } from '#api/modules/requests/service.ts';
import { SUBMISSION_REFUSED } from '#api/modules/risk/rules.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { uniqueEmail, user, withContext } from './operator-data.ts';

setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

const PHOTO = new Uint8Array(readFileSync('api/modules/demo/data/images/printhead-1.jpg'));
const fields = { productName: 'HP 305 Black Ink Cartridge', brand: 'HP', description: 'Unused spare.', condition: 'like_new' };

describe.each(all.map((t) => [t.name, t] as const))('swappoints risk on the %s database', (_name, target) => {
  test('block --json, list, the same entry again (exit 2), a bad entry (exit 2), unblock, unblock again (exit 2); a blocked customer cannot submit', async () => {
    const email = uniqueEmail('blocked');
    const blocked = await runCli(['risk', 'block', email.toUpperCase(), '--reason', 'Same photos from three accounts', '--json'], target.env);
    expect([blocked.code, blocked.stderr]).toEqual([0, '']);
    const entry = JSON.parse(blocked.stdout);
    expect(entry).toMatchObject({ entry: email, reason: 'Same photos from three accounts', createdBy: 'cli' });

    const listed = await runCli(['risk', 'list', '--json'], target.env);
    expect(JSON.parse(listed.stdout)).toEqual([entry]);
    const table = await runCli(['risk', 'list'], target.env);
    expect(table.stdout).toContain('ENTRY');
    expect(table.stdout).toContain(email);

    const again = await runCli(['risk', 'block', email, '--reason', 'twice'], target.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('swappoints: That email or domain is already on the block list.\n');
    const bad = await runCli(['risk', 'block', 'not-an-email', '--reason', 'x'], target.env);
    expect(bad.code).toBe(2);
    const noReason = await runCli(['risk', 'block', uniqueEmail('x')], target.env);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');

    const refused = await withContext(target.env, async (ctx) => {
      const customer = await user(ctx, email);
      const image = await saveUpload(ctx, customer.id, PHOTO, 'image/jpeg');
      return createRequest(ctx, customer, { ...fields, images: [image] }).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    });
    expect(refused).toBe(SUBMISSION_REFUSED);

    const unblocked = await runCli(['risk', 'unblock', email], target.env);
    expect([unblocked.code, unblocked.stdout]).toEqual([0, `Unblocked ${email}\n`]);
    expect((await runCli(['risk', 'unblock', email], target.env)).code).toBe(2);
    expect((await runCli(['risk', 'list'], target.env)).stdout).toBe('The block list is empty.\n');
  });

  test('rescan-photos hashes photos stored before hashing, flags two customers sharing one, and a second run changes nothing', async () => {
    const ids = await withContext(target.env, async (ctx) => {
      const made: string[] = [];
      for (const who of [uniqueEmail('first'), uniqueEmail('second')]) {
        const customer = await user(ctx, who);
        const image = await saveUpload(ctx, customer.id, PHOTO, 'image/jpeg');
        made.push((await createRequest(ctx, customer, { ...fields, images: [image] })).id);
      }
      // as before migration 016: no hashes and no flags
      await ctx.db.updateTable('request_images').set({ sha256: null, dhash: null }).execute();
      await ctx.db.deleteFrom('risk_flags').execute();
      return made;
    });
    const first = await runCli(['risk', 'rescan-photos', '--json'], target.env);
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(first.stdout)).toMatchObject({ unreadable: 0, flagged: 2 });
    expect(JSON.parse(first.stdout).hashed).toBeGreaterThanOrEqual(2);
    const flags = await withContext(target.env, (ctx) => ctx.db.selectFrom('risk_flags').select(['request_id', 'other_request_id']).where('request_id', 'in', ids).execute());
    expect(flags.map((f) => [f.request_id, f.other_request_id]).sort()).toEqual([[ids[0]!, ids[1]!], [ids[1]!, ids[0]!]].sort());

    const second = await runCli(['risk', 'rescan-photos'], target.env);
    expect([second.code, second.stdout]).toEqual([0, 'Hashed 0 photos; 0 new flags; 0 unreadable.\n']);
  });

  test('--help teaches each command with an example', async () => {
    for (const command of ['block', 'unblock', 'list', 'rescan-photos']) {
      const help = await runCli(['risk', command, '--help'], target.env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Example');
    }
  });
});
