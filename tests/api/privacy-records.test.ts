import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { listAccess } from '#api/modules/access-log/queries.ts';
import { removeExpiredPhotos } from '#api/modules/requests/photo-retention.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTarget } from '#tests/helpers/cli-targets.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { png, uploadForm } from '#tests/helpers/images.ts';

// the CLI case opens an embedded database of its own, twice: seconds on a loaded machine
setDefaultTimeout(60_000);

const ADMIN = 'priya.admin@example.com';
const CUSTOMER = 'asha.rao@example.com';

describe.each(databaseKinds())('personal data records: photo retention and who looked (%s)', (kind) => {
  let t: TestApp;
  let admin: string;
  let customer: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAILS: ADMIN, PHOTO_RETENTION_DAYS: '180' });
    admin = await t.signIn(ADMIN, { admin: true });
    customer = await t.signIn(CUSTOMER);
  });
  afterAll(() => t.close());

  /** A request with one photo, made as the customer's browser makes it; returns its id and the photo's public id. */
  async function submitted(productName: string) {
    const upload = await t.request('POST', '/image/upload', { token: customer, body: uploadForm({ bytes: png(8, 6), name: 'p.png' }) });
    expect(upload.status).toBe(200);
    const created = await t.request('POST', '/api/exchange', {
      token: customer,
      body: { productName, brand: 'HP', description: 'Used fuser', condition: 'good', images: [{ url: upload.body.secure_url, publicId: upload.body.public_id }] },
    });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, publicId: upload.body.public_id as string };
  }
  const declined = async (productName: string, daysAgo: number) => {
    const request = await submitted(productName);
    expect((await t.request('PUT', `/api/admin/exchange-requests/${request.id}/status`, { token: admin, body: { status: 'declined', adminFeedback: 'Not a part we take' } })).status).toBe(200);
    await sql`update exchange_requests set decided_at = now() - make_interval(days => ${daysAgo}) where id = ${request.id}`.execute(t.ctx.db);
    return request;
  };
  const storedFiles = (publicId: string) => {
    const dir = join(t.ctx.settings.mediaDir, publicId.slice(0, 2));
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(publicId)) : [];
  };
  const photosOf = async (id: string) => (await t.ctx.db.selectFrom('request_images').select('public_id').where('request_id', '=', id).execute()).length;

  test('photos of requests closed more than PHOTO_RETENTION_DAYS ago go from the database and the store, thumbnails too; the request says when; open and recent ones stay; a second run changes nothing', async () => {
    const old = await declined('Old fuser', 181);
    const recent = await declined('Recent fuser', 179);
    const open = await submitted('Open drum');
    await sql`update exchange_requests set created_at = now() - interval '400 days' where id = ${open.id}`.execute(t.ctx.db);
    const completed = await submitted('Completed toner');
    // completing takes a warehouse, shipping, receipt and credit; only the state and its date matter here
    const warehouse = JSON.stringify({ id: 'w1', name: 'Pune', addressLine1: '1 Road', city: 'Pune', state: 'Maharashtra', postalCode: '411001', country: 'IN' });
    await sql`update exchange_requests set status = 'completed', warehouse_snapshot = ${warehouse}::jsonb, credited_at = now() - interval '201 days', completed_at = now() - interval '200 days' where id = ${completed.id}`.execute(t.ctx.db);
    // the customer's detail page makes the thumbnails; they must go with the original
    expect((await t.request('GET', `/media/${old.publicId}.w320.webp`)).status).toBe(200);
    expect(storedFiles(old.publicId).length).toBeGreaterThanOrEqual(2);

    const dryRun = await removeExpiredPhotos(t.ctx, { dryRun: true });
    expect(dryRun).toEqual({ requests: 2, photos: 2, dryRun: true });
    expect(await photosOf(old.id)).toBe(1);

    expect(await removeExpiredPhotos(t.ctx)).toEqual({ requests: 2, photos: 2, dryRun: false });
    for (const gone of [old, completed]) {
      expect(await photosOf(gone.id)).toBe(0);
      expect(storedFiles(gone.publicId)).toEqual([]);
    }
    for (const kept of [recent, open]) {
      expect(await photosOf(kept.id)).toBe(1);
      expect(storedFiles(kept.publicId).length).toBeGreaterThanOrEqual(1);
    }

    const mine = await t.request('GET', `/api/exchange/${old.id}`, { token: customer });
    expect(mine.status).toBe(200);
    expect(mine.body.images).toEqual([]);
    expect(Date.now() - Date.parse(mine.body.photosRemovedAt)).toBeLessThan(60_000);
    expect(mine.body.productName).toBe('Old fuser');
    expect((await t.request('GET', `/api/exchange/${recent.id}`, { token: customer })).body.photosRemovedAt).toBeNull();

    expect(await removeExpiredPhotos(t.ctx)).toEqual({ requests: 0, photos: 0, dryRun: false });
    // 179 days become 181: the next run takes it
    expect(await removeExpiredPhotos(t.ctx, { asOf: new Date(Date.now() + 2 * 86_400_000) })).toEqual({ requests: 1, photos: 1, dryRun: false });
  });

  test("each admin view of a request's detail is recorded (who, whose, which, when); the customer's own view is not", async () => {
    const { id } = await submitted('Logged drum');
    const before = (await listAccess(t.ctx.db, { email: CUSTOMER, limit: 1000 })).length;
    expect((await t.request('GET', `/api/exchange/${id}`, { token: customer })).status).toBe(200);
    expect((await t.request('GET', `/api/admin/exchange-requests/${id}`, { token: admin })).status).toBe(200);
    const entries = await listAccess(t.ctx.db, { email: CUSTOMER.toUpperCase(), limit: 1000 });
    expect(entries).toHaveLength(before + 1);
    expect(entries[0]).toMatchObject({ actorEmail: ADMIN, action: 'request_detail', subjectEmail: CUSTOMER, requestId: id });
    expect(Date.now() - Date.parse(entries[0]!.at)).toBeLessThan(60_000);
    // an unknown request is a 404 and records nothing
    expect((await t.request('GET', '/api/admin/exchange-requests/00000000-0000-4000-8000-000000000000', { token: admin })).status).toBe(404);
    expect(await listAccess(t.ctx.db, { email: CUSTOMER, limit: 1000 })).toHaveLength(before + 1);
    expect(await listAccess(t.ctx.db, { email: 'nobody@example.com' })).toEqual([]);
  });

  test('swappoints privacy log and privacy prune read and act on the same records', async () => {
    const target = kind === 'postgres' ? { env: { DATA_DIR: t.ctx.settings.dataDir, DATABASE_URL: t.ctx.settings.databaseUrl }, cleanup: async () => {} } : await cliTarget('embedded');
    try {
      const log = await runCli(['privacy', 'log', '--email', CUSTOMER, '--json'], target.env);
      expect(log.code).toBe(0);
      const entries = JSON.parse(log.stdout) as { actorEmail: string; action: string }[];
      if (kind === 'postgres') expect(entries[0]).toMatchObject({ actorEmail: ADMIN, action: 'request_detail' });
      else expect(entries).toEqual([]);
      // everything old enough went in the first test
      const prune = await runCli(['privacy', 'prune'], target.env);
      expect({ code: prune.code, stdout: prune.stdout }).toEqual({ code: 0, stdout: 'Deleted 0 photos of 0 requests closed more than 180 days ago.\n' });
    } finally {
      await target.cleanup();
    }
  });
});

test('PHOTO_RETENTION_DAYS must be a positive whole number: anything else stops the start, naming the setting', () => {
  const base = { JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/sp-photo-retention-settings' };
  expect(loadSettings(base).photoRetentionDays).toBe(180);
  expect(loadSettings({ ...base, PHOTO_RETENTION_DAYS: '30' }).photoRetentionDays).toBe(30);
  for (const bad of ['0', '-5', '1.5', 'ninety', '3651']) {
    expect(() => loadSettings({ ...base, PHOTO_RETENTION_DAYS: bad })).toThrow(/Invalid setting PHOTO_RETENTION_DAYS/);
  }
});
