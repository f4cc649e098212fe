import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import sharp from 'sharp';
import type { ImageStore } from '#api/integrations/images/index.ts';
import { WEBHOOK_EVENT_TYPES } from '#api/modules/webhooks/rules.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { eraseCustomer } from '#api/modules/privacy/erase.ts';
import { runDuePrivacyJobs } from '#api/modules/privacy/jobs.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createWarehouse, requestAt, signInPerson, uniqueEmail, validRequest, type Person } from '#tests/helpers/fixtures.ts';
import { uploadForm } from '#tests/helpers/images.ts';
import { whereFound } from '#tests/helpers/personal-data.ts';

setDefaultTimeout(60_000);

async function storedKeys(images: ImageStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const stored of images.list()) keys.push(stored.key);
  return keys;
}

/**
 * Issue 25, point 2: an erasure removes the person from every table and the image store, keeps the
 * accounting under a pseudonym, is all or nothing, and is refused while a parcel is on its way.
 */
describe.each(databaseKinds())('privacy: erasure (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
    // a receiver of the shop's integration: the deliveries' bodies name the customer
    await t.ctx.db.insertInto('webhook_endpoints').values({ url: 'https://hooks.example.com/in', events: [...WEBHOOK_EVENT_TYPES], secret: 'whsec_dGVzdA==' }).execute();
  });
  afterAll(() => t.close());

  let shopCustomerIds = 7_000_000;
  /** A customer with a name, a completed (credited) request, a pending one with a real photo and its thumbnails, mails and events. */
  async function heldCustomer(name: string) {
    const email = uniqueEmail('asha');
    // counted, not drawn: two random ids out of a thousand collided on the unique shop customer id
    await addCustomer(t.ctx.db, { email, name, shopCustomerId: String(++shopCustomerIds) });
    const customer = await signInPerson(t, email);
    const completed = await requestAt(t, 'completed', customer, admin, warehouseId, 400);
    const photo = new Uint8Array(await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a6' } }).jpeg().toBuffer());
    const upload = await t.request('POST', '/image/upload', { body: uploadForm({ bytes: photo, name: 'part.jpg', type: 'image/jpeg' }), token: customer.token });
    expect(upload.status).toBe(200);
    const pending = await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([{ url: upload.body.secure_url, publicId: upload.body.public_id }]) });
    expect(pending.status).toBe(201);
    return { customer, completed, publicId: upload.body.public_id as string, pendingId: pending.body.id as string };
  }

  test('after an erasure no table holds the email or the name, the store holds no photo or thumbnail, the ledger keeps amount, date and shop customer id under the pseudonym', async () => {
    const name = 'Ashwini Privatova';
    const { customer, completed, publicId, pendingId } = await heldCustomer(name);
    const before = await storedKeys(t.ctx.images);
    expect(before.filter((k) => k.includes(publicId)).length).toBeGreaterThan(1); // the upload and its thumbnails
    expect(await whereFound(t, customer.email)).toContain('webhook_deliveries.body');
    const ledgerBefore = await t.ctx.db.selectFrom('credit_ledger').innerJoin('users', 'users.id', 'credit_ledger.user_id').select(['amount', 'credit_ledger.created_at', 'users.shop_customer_id']).where('exchange_request_id', '=', completed).executeTakeFirstOrThrow();

    const res = await t.request('DELETE', '/api/privacy/account', { token: customer.token });
    expect(res.status).toBe(200);
    expect(res.body.pseudonym).toMatch(/^erased-[0-9a-f]{10}$/);
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0');

    expect(await whereFound(t, customer.email)).toEqual([]);
    expect(await whereFound(t, name)).toEqual([]);
    expect((await storedKeys(t.ctx.images)).filter((k) => k.includes(publicId))).toEqual([]);
    const ledgerAfter = await t.ctx.db.selectFrom('credit_ledger').innerJoin('users', 'users.id', 'credit_ledger.user_id').select(['amount', 'credit_ledger.created_at', 'users.shop_customer_id', 'users.email']).where('exchange_request_id', '=', completed).executeTakeFirstOrThrow();
    expect(ledgerAfter).toEqual({ ...ledgerBefore, email: `${res.body.pseudonym}@erased.invalid` });

    // the session is gone, and the admin's list shows the pseudonym
    expect((await t.request('GET', '/api/exchange', { token: customer.token })).status).toBe(401);
    const detail = await t.request('GET', `/api/admin/exchange-requests/${completed}`, { token: admin.token });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).toContain(res.body.pseudonym);
    expect(JSON.stringify(detail.body)).not.toContain(customer.email);

    // the pending request can go nowhere now: withdrawn, with the reason on its timeline
    expect((await t.request('GET', `/api/admin/exchange-requests/${pendingId}`, { token: admin.token })).status).toBe(404);
    const withdrawn = await t.ctx.db.selectFrom('request_events').select(['type', 'actor_role', 'note']).where('request_id', '=', pendingId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(withdrawn).toEqual({ type: 'deleted', actor_role: 'system', note: "Withdrawn: the customer's account was erased." });

    // the same email signs in again as a new customer with nothing of the old one
    const again = await signInPerson(t, customer.email);
    expect(again.id).not.toBe(customer.id);
    const list = await t.request('GET', '/api/exchange', { token: again.token });
    expect(list.body).toEqual([]);
  });

  test('a second erasure of the same email finds no customer: the operator is told in a sentence', async () => {
    const { customer } = await heldCustomer('Twice Erased');
    await eraseCustomer(t.ctx, customer.email);
    await expect(eraseCustomer(t.ctx, customer.email)).rejects.toThrow(`No customer with the email ${customer.email} is held here`);
  });

  test('erasure is refused with the reason while a parcel is on its way, and nothing is touched', async () => {
    const customer = await signInPerson(t);
    const shipped = await requestAt(t, 'shipped', customer, admin, warehouseId);
    const product = (await t.ctx.db.selectFrom('exchange_requests').select('product_name').where('id', '=', shipped).executeTakeFirstOrThrow()).product_name;
    const res = await t.request('DELETE', '/api/privacy/account', { token: customer.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(`A parcel is on its way for your request "${product}"`);
    expect((await t.request('GET', '/api/exchange', { token: customer.token })).status).toBe(200);
    expect(await whereFound(t, customer.email)).toContain('users.email');
  });

  test('a dry run reports every table and changes nothing', async () => {
    const { customer, publicId } = await heldCustomer('Dry Runner');
    const found = await whereFound(t, customer.email);
    const report = await eraseCustomer(t.ctx, customer.email, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.tables.find((x) => x.table === 'users')!.rows).toBe(1);
    expect(report.tables.find((x) => x.table === 'request_images')!.rows).toBe(2);
    expect(await whereFound(t, customer.email)).toEqual(found);
    expect((await storedKeys(t.ctx.images)).some((k) => k.includes(publicId))).toBe(true);
  });

  test('an erasure whose last statement fails leaves the customer whole: every table as before, photos in the store', async () => {
    const { customer, publicId } = await heldCustomer('Whole Afterwards');
    const found = await whereFound(t, customer.email);
    const rowsBefore = await t.ctx.db.selectFrom('request_images').select('public_id').where('uploaded_by', '=', customer.id).execute();
    // the database refuses the pseudonym on users (the last step): everything before it must roll back
    await sql`create function refuse_erasure() returns trigger language plpgsql as $$ begin
      if new.email like 'erased-%' then raise exception 'refused by the test'; end if; return new; end $$`.execute(t.ctx.db);
    await sql`create trigger refuse_erasure before update on users for each row execute function refuse_erasure()`.execute(t.ctx.db);
    try {
      await expect(eraseCustomer(t.ctx, customer.email)).rejects.toThrow('refused by the test');
    } finally {
      await sql`drop trigger refuse_erasure on users`.execute(t.ctx.db);
      await sql`drop function refuse_erasure()`.execute(t.ctx.db);
    }
    expect(await whereFound(t, customer.email)).toEqual(found);
    expect(await t.ctx.db.selectFrom('request_images').select('public_id').where('uploaded_by', '=', customer.id).execute()).toEqual(rowsBefore);
    expect((await storedKeys(t.ctx.images)).some((k) => k.includes(publicId))).toBe(true);
    expect((await t.request('GET', '/api/exchange', { token: customer.token })).status).toBe(200);
  });

  test('when the image store fails the database is still erased, and the job loop removes the files once the store is back', async () => {
    const { customer, publicId } = await heldCustomer('Store Down');
    const store = t.ctx.images;
    // the outside store is down for deletions: a fake of the store, never of our database
    t.ctx.images = { ...store, kind: store.kind, list: store.list.bind(store), get: store.get.bind(store), put: store.put.bind(store), exists: store.exists.bind(store), check: store.check.bind(store), delete: async () => { throw new Error('bucket unreachable'); } };
    let report;
    try {
      report = await eraseCustomer(t.ctx, customer.email);
    } finally {
      t.ctx.images = store;
    }
    expect(report.filesRemoved).toBe(false);
    expect(await whereFound(t, customer.email)).toEqual([]);
    expect((await storedKeys(store)).some((k) => k.includes(publicId))).toBe(true);
    const job = await t.ctx.db.selectFrom('privacy_jobs').selectAll().where('kind', '=', 'remove-media').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', last_error: 'bucket unreachable' });

    await t.ctx.db.updateTable('privacy_jobs').set({ due_at: new Date() }).where('id', '=', job.id).execute();
    await runDuePrivacyJobs(t.ctx);
    expect((await storedKeys(store)).filter((k) => k.includes(publicId))).toEqual([]);
    expect(await t.ctx.db.selectFrom('privacy_jobs').select('status').where('id', '=', job.id).executeTakeFirstOrThrow()).toEqual({ status: 'done' });
  });
});
