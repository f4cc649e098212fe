import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createLocalImageStore, newPublicId } from '#api/integrations/images/index.ts';
import { attachImages, deleteImagesOf, imagesOf, removeStoredImages, removeUnattachedUploads } from '#api/modules/images/service.ts';
import { cleanImage } from '#api/modules/images/clean.ts';
import { MAX_IMAGE_BYTES } from '#api/modules/images/rules.ts';
import { sniffImageType } from '#api/modules/images/sniff.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { GIF, insertRequest, JPEG, png, uploadForm, WEBP } from '#tests/helpers/images.ts';

type Ref = { url: string; publicId: string };

describe.each(databaseKinds())('image service: attaching, cleanup, bad input (%s)', (kind) => {
  let t: TestApp;
  let asha: { id: string; token: string };
  let ravi: { id: string; token: string };

  const signIn = async (email: string) => {
    const token = await t.signIn(email);
    const { id } = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return { id, token };
  };
  const uploadAs = async (who: { token: string }, bytes: Uint8Array = png()): Promise<Ref> => {
    const res = await t.request('POST', '/image/upload', { token: who.token, body: uploadForm({ bytes, name: 'p.png' }) });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { url: res.body.secure_url, publicId: res.body.public_id };
  };
  const rowOf = (publicId: string) => t.ctx.db.selectFrom('request_images').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  const fileOf = (publicId: string, ext = 'png') => join(t.ctx.settings.mediaDir, publicId.slice(0, 2), `${publicId}.${ext}`);
  const attach = (userId: string, requestId: string, images: Ref[]) => attachImages(t.ctx.db, { userId, requestId, images });
  /** created_at cannot be set through the typed schema: tests age rows with plain SQL */
  const age = (hours: number, where: { publicIds?: string[]; userId?: string }) =>
    sql`update request_images set created_at = ${new Date(Date.now() - hours * 3_600_000)}
         where ${where.publicIds ? sql`public_id in (${sql.join(where.publicIds)})` : sql`uploaded_by = ${where.userId}`}`.execute(t.ctx.db);
  const clearUploads = (userId: string) => t.ctx.db.deleteFrom('request_images').where('uploaded_by', '=', userId).where('request_id', 'is', null).execute();

  beforeAll(async () => {
    // the fast-check bodies make hundreds of broken images, each one a warning: keep only errors
    t = await createTestApp(kind, { LOG_LEVEL: 'error' });
    asha = await signIn('asha.rao@example.com');
    ravi = await signIn('ravi.k@example.com');
  });
  afterAll(() => t.close());

  describe('attachImages', () => {
    test('attaches the uploads in the order given (positions 0..4); imagesOf returns them by position', async () => {
      await clearUploads(asha.id);
      const refs = [await uploadAs(asha, png()), await uploadAs(asha, JPEG), await uploadAs(asha, GIF), await uploadAs(asha, WEBP), await uploadAs(asha, png(2, 2))];
      const order = [refs[3]!, refs[0]!, refs[4]!, refs[1]!, refs[2]!];
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await attach(asha.id, requestId, order);
      for (const [position, ref] of order.entries()) expect(await rowOf(ref.publicId)).toMatchObject({ request_id: requestId, position });

      const emptyRequest = await insertRequest(t.ctx.db, asha.id);
      const map = await imagesOf(t.ctx.db, [requestId, emptyRequest]);
      expect(map.get(requestId)).toEqual(order);
      expect(map.get(emptyRequest)).toEqual([]);
      expect((await imagesOf(t.ctx.db, [])).size).toBe(0);
    });

    test("no images gives 'Please upload at least one image of the product'", async () => {
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await expect(attach(asha.id, requestId, [])).rejects.toMatchObject({ status: 400, message: 'Please upload at least one image of the product' });
    });

    test("six images give 'You can attach at most 5 images' and attach none", async () => {
      await clearUploads(asha.id);
      const refs = await Promise.all(Array.from({ length: 6 }, () => uploadAs(asha)));
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await expect(attach(asha.id, requestId, refs)).rejects.toMatchObject({ status: 400, message: 'You can attach at most 5 images' });
      for (const ref of refs) expect((await rowOf(ref.publicId))?.request_id).toBeNull();
    });

    test("another user's upload is 'not one of your uploads', and the caller's own images in the call stay unattached", async () => {
      await clearUploads(asha.id);
      const mine = await uploadAs(asha);
      const theirs = await uploadAs(ravi);
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await expect(attach(asha.id, requestId, [mine, theirs])).rejects.toMatchObject({ status: 400, message: `Image ${theirs.publicId} is not one of your uploads` });
      expect((await rowOf(mine.publicId))?.request_id).toBeNull();
      expect((await rowOf(theirs.publicId))?.request_id).toBeNull();
    });

    test('a url that does not match the upload, an unknown id, an attached upload or a repeated id are refused', async () => {
      await clearUploads(asha.id);
      const a = await uploadAs(asha);
      const requestId = await insertRequest(t.ctx.db, asha.id);
      for (const url of [`https://evil.example${a.url}`, a.url.replace('.png', '.jpg'), 'javascript:alert(1)', '']) {
        await expect(attach(asha.id, requestId, [{ url, publicId: a.publicId }])).rejects.toMatchObject({ status: 400, message: `Image ${a.publicId} is not one of your uploads` });
      }
      const unknown = newPublicId();
      await expect(attach(asha.id, requestId, [{ url: `/media/${unknown}.png`, publicId: unknown }])).rejects.toMatchObject({ status: 400 });
      await expect(attach(asha.id, requestId, [{ url: "'; drop table users; --", publicId: "x' or '1'='1" }])).rejects.toMatchObject({ status: 400 });
      await expect(attach(asha.id, requestId, [a, a])).rejects.toMatchObject({ status: 400, message: `Image ${a.publicId} is listed more than once` });

      await attach(asha.id, requestId, [a]);
      const second = await insertRequest(t.ctx.db, asha.id);
      await expect(attach(asha.id, second, [a])).rejects.toMatchObject({ status: 400, message: `Image ${a.publicId} is not one of your uploads` });
      expect((await rowOf(a.publicId))?.request_id).toBe(requestId);
    });

    test('two concurrent attaches of one upload (each in its own request-creating transaction): exactly one succeeds', async () => {
      for (let round = 0; round < 5; round++) {
        await clearUploads(asha.id);
        const shared = await uploadAs(asha);
        const createWith = (images: Ref[]) =>
          t.ctx.db.transaction().execute(async (trx) => {
            const requestId = await insertRequest(trx, asha.id);
            await attachImages(trx, { userId: asha.id, requestId, images });
            return requestId;
          });
        const results = await Promise.allSettled([createWith([shared]), createWith([shared])]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ status: 400, message: `Image ${shared.publicId} is not one of your uploads` });
        const winner = (won[0] as PromiseFulfilledResult<string>).value;
        expect((await rowOf(shared.publicId))?.request_id).toBe(winner);
        // the losing transaction rolled back: its request does not exist
        const requests = await t.ctx.db.selectFrom('exchange_requests').select('id').where('id', '=', winner).execute();
        expect(requests).toHaveLength(1);
      }
    });

    test('ten concurrent attaches of overlapping upload sets: every upload ends on at most one request, and whole sets only', async () => {
      await clearUploads(asha.id);
      const pool = await Promise.all(Array.from({ length: 6 }, () => uploadAs(asha)));
      const sets = Array.from({ length: 10 }, (_, i) => [pool[i % 6]!, pool[(i + 1) % 6]!]);
      const results = await Promise.allSettled(
        sets.map((images) =>
          t.ctx.db.transaction().execute(async (trx) => {
            const requestId = await insertRequest(trx, asha.id);
            await attachImages(trx, { userId: asha.id, requestId, images });
            return { requestId, images };
          }),
        ),
      );
      const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(winners.length).toBeGreaterThanOrEqual(1);
      const taken = winners.flatMap((w) => w.images.map((i) => i.publicId));
      expect(new Set(taken).size).toBe(taken.length);
      for (const w of winners) expect((await imagesOf(t.ctx.db, [w.requestId])).get(w.requestId)).toEqual(w.images);
    });
  });

  describe('deleting a request removes its images', () => {
    test('deleteImagesOf removes the rows in the transaction; the files go only after commit', async () => {
      await clearUploads(asha.id);
      const refs = [await uploadAs(asha), await uploadAs(asha)];
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await attach(asha.id, requestId, refs);

      // a rolled-back delete keeps rows and files
      const rolledBack = t.ctx.db.transaction().execute(async (trx) => {
        expect(await deleteImagesOf(trx, [requestId])).toHaveLength(2);
        throw new Error('changed my mind');
      });
      await expect(rolledBack).rejects.toThrow('changed my mind');
      expect((await imagesOf(t.ctx.db, [requestId])).get(requestId)).toEqual(refs);

      const ids = await t.ctx.db.transaction().execute(async (trx) => {
        const removed = await deleteImagesOf(trx, [requestId]);
        await trx.deleteFrom('exchange_requests').where('id', '=', requestId).execute();
        return removed;
      });
      expect(ids.sort()).toEqual(refs.map((r) => r.publicId).sort());
      for (const ref of refs) expect(existsSync(fileOf(ref.publicId))).toBe(true);
      await removeStoredImages(t.ctx, ids);
      for (const ref of refs) {
        expect(existsSync(fileOf(ref.publicId))).toBe(false);
        expect((await t.app.handle(new Request(`${TEST_ORIGIN}${ref.url}`))).status).toBe(404);
      }
      expect(await deleteImagesOf(t.ctx.db, [])).toEqual([]);
    });
  });

  describe('removeUnattachedUploads', () => {
    test('uploads never attached after a day lose their row and their file; fresh and attached ones stay', async () => {
      await clearUploads(asha.id);
      const old = await uploadAs(asha);
      const fresh = await uploadAs(asha);
      const oldAttached = await uploadAs(asha);
      const requestId = await insertRequest(t.ctx.db, asha.id);
      await attach(asha.id, requestId, [oldAttached]);
      await age(25, { publicIds: [old.publicId, oldAttached.publicId] });
      await age(23, { publicIds: [fresh.publicId] });
      expect(existsSync(fileOf(old.publicId))).toBe(true);

      expect(await removeUnattachedUploads(t.ctx)).toBe(1);
      expect(await rowOf(old.publicId)).toBeUndefined();
      expect(existsSync(fileOf(old.publicId))).toBe(false);
      expect((await t.app.handle(new Request(`${TEST_ORIGIN}${old.url}`))).status).toBe(404);
      for (const kept of [fresh, oldAttached]) {
        expect(await rowOf(kept.publicId)).toBeDefined();
        expect(existsSync(fileOf(kept.publicId))).toBe(true);
      }
      // a late attach of the removed upload is refused, not half-done
      const late = await insertRequest(t.ctx.db, asha.id);
      await expect(attach(asha.id, late, [old])).rejects.toMatchObject({ status: 400 });
      expect(await removeUnattachedUploads(t.ctx)).toBe(0);
    });

    test('a shorter age removes more; the cleanup works through batch after batch', async () => {
      await clearUploads(asha.id);
      await clearUploads(ravi.id);
      const refs = await Promise.all(Array.from({ length: 3 }, () => uploadAs(ravi)));
      await age(2, { userId: ravi.id });
      expect(await removeUnattachedUploads(t.ctx, 1, { batchSize: 2 })).toBe(3);
      for (const ref of refs) expect(await rowOf(ref.publicId)).toBeUndefined();
      for (const ref of refs) expect(existsSync(fileOf(ref.publicId))).toBe(false);
    });
  });

  describe('the local store never leaves MEDIA_DIR', () => {
    test('malformed keys are refused on put, unknown on get and exists, skipped on delete', async () => {
      const store = createLocalImageStore(t.ctx.settings.mediaDir);
      const id = 'a'.repeat(40);
      const keys = ['../../jwt-secret', '../x', '/etc/passwd', `aa/${'A'.repeat(40)}.png`, '', `aa/${'a'.repeat(39)}.png`, `aa/${id}/../x.png`,
        `ab/${id}.png`, `aa/${id}.exe`, `aa/${id}..png`, `aa/${id}.w/../x.png`, `../aa/${id}.png`, `aa/${id}.png/`];
      for (const key of keys) {
        await expect(store.put(key, png(), 'image/png')).rejects.toThrow('malformed');
        expect(await store.get(key)).toBeNull();
        expect(await store.exists(key)).toBe(false);
        await store.delete([key]);
      }
      const names = existsSync(t.ctx.settings.mediaDir) ? readdirSync(t.ctx.settings.mediaDir, { recursive: true }).map(String) : [];
      expect(names.every((n) => /^[0-9a-f]{2}(\/[0-9a-f]{40}(\.w(320|1280))?\.(png|jpg|gif|webp|avif))?$/.test(n))).toBe(true);
    });
  });

  describe('bad input never yields a 5xx (fast-check)', () => {
    const post = (body: BodyInit | undefined, contentType: string | undefined) =>
      t.app.handle(
        new Request(`${TEST_ORIGIN}/image/upload`, {
          method: 'POST',
          body,
          headers: { authorization: `Bearer ${asha.token}`, ...(contentType ? { 'content-type': contentType } : {}) },
        }),
      );
    const expectJsonError = async (res: Response) => {
      expect(res.status).toBeLessThan(500);
      if (res.status !== 200) {
        const body = await res.json();
        expect(typeof body.error).toBe('string');
      } else await res.arrayBuffer();
    };

    test('random bodies under random content types', async () => {
      const contentType = fc.oneof(
        fc.constant(undefined),
        fc.constantFrom('multipart/form-data', 'application/json', 'text/plain', 'image/png'),
        fc.string().map((b) => `multipart/form-data; boundary=${b}`),
        fc.string({ maxLength: 80 }),
      );
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), contentType, async (bytes, type) => {
          let headersOk = true;
          try {
            new Headers(type ? { 'content-type': type } : {});
          } catch {
            headersOk = false;
          }
          fc.pre(headersOk);
          await expectJsonError(await post(bytes, type));
        }),
        { numRuns: 150 },
      );
    });

    test('random multipart bodies around a file part: the verdict follows the bytes only (their type and whether they decode)', async () => {
      const prefixes = [png().subarray(0, 24), JPEG.subarray(0, 4), GIF.subarray(0, 12), WEBP.subarray(0, 16), new TextEncoder().encode('<svg'), new Uint8Array()];
      const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,60}$/);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...prefixes),
          fc.uint8Array({ maxLength: 512 }),
          fc.string({ maxLength: 120 }),
          fc.string({ maxLength: 40 }),
          boundary,
          fc.boolean(),
          async (prefix, tail, name, declared, b, truncate) => {
            await clearUploads(asha.id);
            const bytes = new Uint8Array([...prefix, ...tail]);
            const head = `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name.replace(/["\r\n]/g, '')}"\r\nContent-Type: ${declared.replace(/[\r\n]/g, '')}\r\n\r\n`;
            const end = `\r\n--${b}\r\nContent-Disposition: form-data; name="upload_preset"\r\n\r\nx\r\n--${b}--\r\n`;
            const full = new Uint8Array([...new TextEncoder().encode(head), ...bytes, ...new TextEncoder().encode(end)]);
            const body = truncate ? full.subarray(0, Math.floor(full.length / 2)) : full;
            const res = await post(body, `multipart/form-data; boundary=${b}`);
            await expectJsonError(res);
            // accepted only when the bytes are an image and decode; 415 when they are not or do not
            const type = sniffImageType(bytes);
            const decodes = async () => type !== null && (await cleanImage(bytes, type, MAX_IMAGE_BYTES)) !== null;
            if (!truncate && res.status === 200) expect(await decodes()).toBe(true);
            if (!truncate && res.status === 415) expect(await decodes()).toBe(false);
            if (!truncate && prefix.length === 0 && bytes.length > 0 && bytes[0] !== 0xff && bytes[0] !== 0x89 && bytes[0] !== 0x47 && bytes[0] !== 0x52) {
              expect([400, 415]).toContain(res.status);
            }
          },
        ),
        { numRuns: 150 },
      );
    });

    test('the sniffer never throws and accepts only the five formats', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
          const type = sniffImageType(bytes);
          expect(type === null || ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'].includes(type)).toBe(true);
        }),
        { numRuns: 2000 },
      );
    });
  });
});
