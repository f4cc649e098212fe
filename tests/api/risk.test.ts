import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { imageKey } from '#api/integrations/images/index.ts';
import { rescanPhotos } from '#api/modules/risk/photos.ts';
import { SUBMISSION_REFUSED } from '#api/modules/risk/rules.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { signInPerson, uniqueEmail, validRequest, type Person } from '#tests/helpers/fixtures.ts';
import { insertRequest, uploadForm } from '#tests/helpers/images.ts';
import type { Db } from '#api/db/connect.ts';
import { flagDuplicatePhotos } from '#api/modules/risk/photos.ts';
import { sql } from 'kysely';

setDefaultTimeout(60_000);

const photo = (name: string) => new Uint8Array(readFileSync(`api/modules/demo/data/images/${name}`));
const TONER = photo('toner-1.jpg');
const DRUM = photo('drum-1.jpg');
const REASON = 'Chargeback fraud ring, case 4471';

describe.each(databaseKinds())('risk controls (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, uniqueEmail('admin'), { admin: true });
  });
  afterAll(() => t.close());

  const upload = async (who: Person, bytes: Uint8Array) => {
    const res = await t.request('POST', '/image/upload', { token: who.token, body: uploadForm({ bytes, name: 'photo.jpg', type: 'image/jpeg' }) });
    expect(res.status).toBe(200);
    return { url: res.body.secure_url as string, publicId: res.body.public_id as string };
  };
  const submit = async (who: Person, bytes: Uint8Array) => t.request('POST', '/api/exchange', { token: who.token, body: validRequest([await upload(who, bytes)]) });
  const submitted = async (who: Person, bytes: Uint8Array) => {
    const res = await submit(who, bytes);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const flagsOf = async (id: string) => (await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin.token })).body.riskFlags;
  const block = (entry: string, reason = REASON) => t.request('POST', '/api/admin/risk/blocks', { token: admin.token, body: { entry, reason } });

  describe('block list', () => {
    test('a blocked customer\'s submission is refused with the neutral 403 sentence, which never shows the reason; unblocking lets them submit', async () => {
      const customer = await signInPerson(t);
      const added = await block(` ${customer.email.toUpperCase()} `);
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ entry: customer.email, reason: REASON, createdBy: admin.email });

      const refused = await submit(customer, DRUM);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: SUBMISSION_REFUSED });
      const answer = JSON.stringify(refused.body) + [...refused.headers.values()].join(' ');
      for (const word of ['Chargeback', '4471', 'fraud', 'block']) expect(answer.toLowerCase()).not.toContain(word.toLowerCase());
      const mine = await t.request('GET', '/api/exchange', { token: customer.token });
      expect(mine.body).toEqual([]);

      const removed = await t.request('DELETE', `/api/admin/risk/blocks/${added.body.id}`, { token: admin.token });
      expect(removed.status).toBe(200);
      expect(removed.body.id).toBe(added.body.id);
      expect((await submit(customer, DRUM)).status).toBe(201);
    });

    test('an @domain entry blocks that domain and its subdomains, not a domain that merely ends the same way', async () => {
      const domain = `blocked${Date.now()}.example`;
      expect((await block(`@${domain}`)).status).toBe(201);
      const inDomain = await signInPerson(t, `asha@${domain}`);
      const inSub = await signInPerson(t, `ravi@mail.${domain}`);
      const lookalike = await signInPerson(t, `neha@not${domain}`);
      expect((await submit(inDomain, DRUM)).status).toBe(403);
      expect((await submit(inSub, DRUM)).status).toBe(403);
      expect((await submit(lookalike, DRUM)).status).toBe(201);
    });

    test('the list shows entries newest first; the same entry twice is 409; bad entries, empty reasons, unknown ids and non-admins are refused', async () => {
      const email = uniqueEmail('listed');
      const first = await block(email);
      expect(first.status).toBe(201);
      const again = await block(email.toUpperCase());
      expect(again.status).toBe(409);
      const list = await t.request('GET', '/api/admin/risk/blocks', { token: admin.token });
      expect(list.status).toBe(200);
      expect(list.body[0]).toMatchObject({ id: first.body.id, entry: email, reason: REASON });

      for (const entry of ['', 'not-an-email', '@', '@localhost', 'a b@example.com', '@exa mple.com', 'x'.repeat(300)]) {
        const res = await block(entry);
        expect(res.status).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      expect((await block(uniqueEmail(), '   ')).status).toBe(400);
      const tooLong = await block(uniqueEmail(), 'r'.repeat(501));
      expect([tooLong.status, tooLong.body.error]).toEqual([400, 'Reason can be at most 500 characters.']);
      expect((await t.request('POST', '/api/admin/risk/blocks', { token: admin.token, body: { entry: 42, reason: [] } })).status).toBe(400);
      expect((await t.request('DELETE', '/api/admin/risk/blocks/999999999', { token: admin.token })).status).toBe(404);
      expect((await t.request('DELETE', '/api/admin/risk/blocks/abc', { token: admin.token })).status).toBe(400);

      const customer = await signInPerson(t);
      expect((await t.request('GET', '/api/admin/risk/blocks', { token: customer.token })).status).toBe(403);
      expect((await t.request('POST', '/api/admin/risk/blocks', { token: customer.token, body: { entry: customer.email, reason: 'x' } })).status).toBe(403);
      expect((await t.request('DELETE', `/api/admin/risk/blocks/${first.body.id}`, { token: customer.token })).status).toBe(403);
      expect((await t.request('GET', '/api/admin/risk/blocks')).status).toBe(401);
    });
  });

  describe('duplicate photos', () => {
    test('the same bytes, a copy re-saved at lower quality and a resized copy in another customer\'s request flag both requests; a different photo does not', async () => {
      const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => signInPerson(t)));
      const original = await submitted(a!, photo('roller-1.jpg'));
      const resaved = await submitted(b!, new Uint8Array(await sharp(photo('roller-1.jpg')).jpeg({ quality: 30 }).toBuffer()));
      const resized = await submitted(c!, new Uint8Array(await sharp(photo('roller-1.jpg')).resize(320).png().toBuffer()));
      const different = await submitted(d!, photo('fuser-1.jpg'));

      const dup = (requestId: string) => ({ kind: 'duplicate_photo', requestId });
      expect(await flagsOf(original)).toEqual(expect.arrayContaining([dup(resaved), dup(resized)]));
      expect(await flagsOf(original)).toHaveLength(2);
      expect(await flagsOf(resaved)).toEqual(expect.arrayContaining([dup(original), dup(resized)]));
      expect(await flagsOf(resized)).toEqual(expect.arrayContaining([dup(original), dup(resaved)]));
      expect(await flagsOf(different)).toEqual([]);

      // the flagged filter keeps exactly the flagged requests
      const flagged = await t.request('GET', '/api/admin/exchange-requests?flagged=true&pageSize=100', { token: admin.token });
      expect(flagged.status).toBe(200);
      const ids = flagged.body.map((r: { id: string }) => r.id);
      expect(ids).toEqual(expect.arrayContaining([original, resaved, resized]));
      expect(ids).not.toContain(different);
      expect(Number(flagged.headers.get('x-total-count'))).toBe(ids.length);
      const pendingFlagged = await t.request('GET', '/api/admin/exchange-requests?flagged=true&tab=0', { token: admin.token });
      expect(pendingFlagged.body.map((r: { id: string }) => r.id)).toContain(original);
      expect((await t.request('GET', '/api/admin/exchange-requests?flagged=maybe', { token: admin.token })).status).toBe(400);

      // customers never see flags, in their detail or their list
      const own = await t.request('GET', `/api/exchange/${original}`, { token: a!.token });
      expect(own.status).toBe(200);
      expect(own.body).not.toHaveProperty('riskFlags');
      expect(JSON.stringify(own.body)).not.toContain(resaved);
      expect(JSON.stringify((await t.request('GET', '/api/exchange', { token: a!.token })).body)).not.toContain('duplicate');
      // and another customer's request stays 404 to them
      expect((await t.request('GET', `/api/exchange/${resaved}`, { token: a!.token })).status).toBe(404);

      // one customer reusing their own photo in a second request is not flagged
      const second = await submitted(e!, photo('printhead-1.jpg'));
      const again = await submitted(e!, photo('printhead-1.jpg'));
      expect(await flagsOf(second)).toEqual([]);
      expect(await flagsOf(again)).toEqual([]);
    });

    // PGlite is one connection, so its transactions never overlap: the race exists on PostgreSQL only.
    test.if(kind === 'postgres')('two customers attaching the same photo in overlapping transactions both get flagged: the second comparison waits for the first to commit', async () => {
      const [a, b] = await Promise.all([signInPerson(t), signInPerson(t)]);
      const bytes = photo('toner-2.jpg');
      const [ia, ib] = await Promise.all([upload(a!, bytes), upload(b!, bytes)]);
      const [ra, rb] = await Promise.all([insertRequest(t.ctx.db, a!.id), insertRequest(t.ctx.db, b!.id)]);
      const attach = (trx: Db, requestId: string, publicId: string) =>
        trx.updateTable('request_images').set({ request_id: requestId }).where('public_id', '=', publicId).execute();

      let commitFirst!: () => void;
      const gate = new Promise<void>((resolve) => (commitFirst = resolve));
      let firstFlagged!: () => void;
      const firstDone = new Promise<void>((resolve) => (firstFlagged = resolve));
      const first = t.ctx.db.transaction().execute(async (trx) => {
        await attach(trx, ra, ia.publicId);
        const n = await flagDuplicatePhotos(trx, ra);
        firstFlagged();
        await gate; // still uncommitted while the second one compares
        return n;
      });
      await firstDone;
      let secondFinished = false;
      const second = t.ctx.db
        .transaction()
        .execute(async (trx) => {
          await attach(trx, rb, ib.publicId);
          return flagDuplicatePhotos(trx, rb);
        })
        .finally(() => (secondFinished = true));
      // the second either finishes (it did not wait) or is seen waiting on the lock
      const waiting = async () => {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`.execute(t.ctx.db);
        return Number(rows[0]!.n) > 0;
      };
      for (let i = 0; i < 500 && !secondFinished && !(await waiting()); i++) await Bun.sleep(5);
      commitFirst();
      expect(await first).toBe(0);
      expect(await second).toBe(2);
      expect(await flagsOf(ra)).toEqual([{ kind: 'duplicate_photo', requestId: rb }]);
      expect(await flagsOf(rb)).toEqual([{ kind: 'duplicate_photo', requestId: ra }]);
    });

    test('rescan-photos hashes images stored before hashing existed, flags their duplicates, and changes nothing when run again', async () => {
      const [a, b] = await Promise.all([signInPerson(t), signInPerson(t)]);
      const first = await submitted(a!, TONER);
      const second = await submitted(b!, photo('ink-1.jpg'));
      // as stored before migration 016: no hashes, no flags (the ink photo is replaced by the toner one behind its back)
      const rows = await t.ctx.db.selectFrom('request_images').select(['public_id', 'request_id']).where('request_id', 'in', [first, second]).execute();
      const secondImage = rows.find((r) => r.request_id === second)!;
      await t.ctx.images.put(imageKey(secondImage.public_id, 'image/jpeg'), new Uint8Array(await sharp(TONER).jpeg({ quality: 50 }).toBuffer()), 'image/jpeg');
      await t.ctx.db.updateTable('request_images').set({ sha256: null, dhash: null }).where('request_id', 'in', [first, second]).execute();
      expect(await flagsOf(first)).toEqual([]);

      const report = await rescanPhotos(t.ctx);
      expect(report.hashed).toBeGreaterThanOrEqual(2);
      expect(report.flagged).toBeGreaterThanOrEqual(2);
      expect(await flagsOf(first)).toEqual(expect.arrayContaining([{ kind: 'duplicate_photo', requestId: second }]));
      expect(await flagsOf(second)).toEqual(expect.arrayContaining([{ kind: 'duplicate_photo', requestId: first }]));

      expect(await rescanPhotos(t.ctx)).toEqual({ hashed: 0, unreadable: 0, flagged: 0 });
    });

    test('deleting a flagged request removes its flags from the other request', async () => {
      const [a, b] = await Promise.all([signInPerson(t), signInPerson(t)]);
      const bytes = new Uint8Array(await sharp(DRUM).rotate(180).jpeg().toBuffer());
      const kept = await submitted(a!, bytes);
      const gone = await submitted(b!, bytes);
      expect(await flagsOf(kept)).toHaveLength(1);
      expect((await t.request('DELETE', `/api/exchange/${gone}`, { token: b!.token })).status).toBe(200);
      expect(await flagsOf(kept)).toEqual([]);
    });
  });
});
