import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { OFFER_ANSWER_DATE_PASSED, OFFER_AUTO_ACCEPTED } from '#api/modules/credit/rules.ts';
import { runDeadlines, type DeadlineReport } from '#api/modules/deadlines/service.ts';
import { JOBS } from '#api/jobs/registry.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, mailsTo, requestAt, shippingBody, signInPerson, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY);
const ids = (report: DeadlineReport, key: 'closed' | 'shipReminded' | 'offerReminded' | 'autoAccepted') => report[key].map((i) => i.id);

test('OFFER_RESPONSE_DAYS, SHIP_BY_DAYS and SHIP_REMINDER_DAYS default to 7, 21 and 7; a bad value is refused naming the setting', () => {
  const base = { DATA_DIR: '/tmp/swappoints-settings-check', JWT_SECRET: 'x'.repeat(40) };
  expect(loadSettings(base)).toMatchObject({ offerResponseDays: 7, shipByDays: 21, shipReminderDays: 7 });
  expect(loadSettings({ ...base, OFFER_RESPONSE_DAYS: '10', SHIP_BY_DAYS: '30', SHIP_REMINDER_DAYS: '3' })).toMatchObject({ offerResponseDays: 10, shipByDays: 30, shipReminderDays: 3 });
  expect(() => loadSettings({ ...base, OFFER_RESPONSE_DAYS: 'a week' })).toThrow('Invalid setting OFFER_RESPONSE_DAYS');
  expect(() => loadSettings({ ...base, SHIP_BY_DAYS: '0' })).toThrow('Invalid setting SHIP_BY_DAYS');
  expect(() => loadSettings({ ...base, SHIP_BY_DAYS: '5', SHIP_REMINDER_DAYS: '5' })).toThrow('Invalid setting SHIP_REMINDER_DAYS: expected a whole number of days less than SHIP_BY_DAYS (5), got "5".');
});

describe.each(databaseKinds())('deadlines: offers answered in time, requests shipped in time (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let warehouseId: string;

  const as = (who: Person, method: string, path: string, body?: unknown) => t.request(method, path, { token: who.token, body });
  const ledgerRows = (id: string) => t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();

  /** A new customer's request quoted ₹850, received, with an offer of ₹400 waiting. */
  async function offered(): Promise<{ id: string; customer: Person }> {
    const customer = await signInPerson(t);
    const id = await createRequest(t, customer, { brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
    expect((await as(admin, 'PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'approved', warehouseId })).status).toBe(200);
    expect((await as(customer, 'POST', `/api/exchange/${id}/shipping`, shippingBody())).status).toBe(200);
    expect((await as(admin, 'PUT', `/api/admin/exchange-requests/${id}/transit`, { transitStatus: 'received' })).status).toBe(200);
    const res = await as(admin, 'PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Scratched drum' });
    expect(res.body.offer.status).toBe('pending');
    return { id, customer };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    warehouseId = (await createWarehouse(t, admin)).id;
    expect((await as(admin, 'POST', '/api/admin/valuation/entries', { brand: 'HP', model: '88A', name: 'HP 88A Black Toner', baseValue: 1000 })).status).toBe(201);
  });
  afterAll(() => t.close());

  test('the deadlines are one periodic job of the job loop', () => {
    expect(JOBS.filter((j) => j.name === 'deadlines')).toEqual([expect.objectContaining({ everyMs: 900_000 })]);
  });

  test('an unanswered offer is reminded 2 days before its date, then accepted on it with its credit; each once, however often it runs', async () => {
    const { id, customer } = await offered();
    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(4.5) }), 'offerReminded')).not.toContain(id);
    const reminded = await runDeadlines(t.ctx, { asOf: inDays(5.5) });
    expect(ids(reminded, 'offerReminded')).toContain(id);
    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(5.5) }), 'offerReminded')).not.toContain(id);
    const reminders = await mailsTo(t, customer.email, 'offer_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.text_body).toMatch(/If we have no answer from you by \d{1,2} \w+ \d{4}, the offer is accepted and ₹400 is credited to your account\./);

    const accepted = await runDeadlines(t.ctx, { asOf: inDays(7.01) });
    expect(ids(accepted, 'autoAccepted')).toContain(id);
    const mine = await as(customer, 'GET', `/api/exchange/${id}`);
    expect(mine.body).toMatchObject({ creditAmount: 400, offer: { status: 'accepted', decidedBy: 'deadline' } });
    expect((await ledgerRows(id)).map((r) => Number(r.amount))).toEqual([400]);
    expect(await mailsTo(t, customer.email, 'credit_assigned')).toHaveLength(1);

    const again = await runDeadlines(t.ctx, { asOf: inDays(7.01) });
    expect(ids(again, 'autoAccepted')).not.toContain(id);
    expect(await ledgerRows(id)).toHaveLength(1);
    expect(await mailsTo(t, customer.email, 'offer_reminder')).toHaveLength(1);
    const late = await as(customer, 'POST', `/api/exchange/${id}/offer/accept`);
    expect([late.status, late.body]).toEqual([409, { error: OFFER_AUTO_ACCEPTED }]);
  });

  test('an accept racing the deadline: one outcome, one ledger row', async () => {
    const { id, customer } = await offered();
    const [accept, report] = await Promise.all([as(customer, 'POST', `/api/exchange/${id}/offer/accept`), runDeadlines(t.ctx, { asOf: inDays(8) })]);
    const byDeadline = ids(report, 'autoAccepted').includes(id);
    expect(accept.status === 200).toBe(!byDeadline);
    if (byDeadline) expect(accept.body).toEqual({ error: OFFER_AUTO_ACCEPTED });
    expect(await ledgerRows(id)).toHaveLength(1);
  });

  test('past its answer date an offer can no longer be declined', async () => {
    const { id, customer } = await offered();
    // move the answer date into the past, as the calendar would
    await t.ctx.db.updateTable('exchange_requests').set({ offer_respond_by: new Date(Date.now() - 60_000) }).where('id', '=', id).execute();
    const res = await as(customer, 'POST', `/api/exchange/${id}/offer/decline`, { choice: 'recycle' });
    expect([res.status, res.body]).toEqual([409, { error: OFFER_ANSWER_DATE_PASSED }]);
    expect(ids(await runDeadlines(t.ctx), 'autoAccepted')).toContain(id);
  });

  test('an approved request not shipped is reminded SHIP_REMINDER_DAYS before SHIP_BY_DAYS, then closed as declined; the customer may submit again', async () => {
    const customer = await signInPerson(t);
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const shipped = await requestAt(t, 'shipped', customer, admin, warehouseId);
    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(13.9) }), 'shipReminded')).not.toContain(id);
    const dry = await runDeadlines(t.ctx, { asOf: inDays(14.1), dryRun: true });
    expect(ids(dry, 'shipReminded')).toContain(id);
    expect(await mailsTo(t, customer.email, 'ship_reminder')).toHaveLength(0);
    const reminded = await runDeadlines(t.ctx, { asOf: inDays(14.1) });
    expect(ids(reminded, 'shipReminded')).toEqual(expect.arrayContaining([id]));
    expect(ids(reminded, 'shipReminded')).not.toContain(shipped);
    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(20) }), 'shipReminded')).not.toContain(id);
    const [reminder, ...more] = await mailsTo(t, customer.email, 'ship_reminder');
    expect(more).toHaveLength(0);
    expect(reminder!.text_body).toMatch(/by \d{1,2} \w+ \d{4}\. A request not shipped by then is closed/);

    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(22), dryRun: true }), 'closed')).toContain(id);
    expect((await as(customer, 'GET', `/api/exchange/${id}`)).body.status).toBe('approved');
    const closed = await runDeadlines(t.ctx, { asOf: inDays(22) });
    expect(ids(closed, 'closed')).toContain(id);
    expect(ids(closed, 'closed')).not.toContain(shipped);
    const mine = await as(customer, 'GET', `/api/exchange/${id}`);
    expect(mine.body).toMatchObject({ status: 'declined', adminFeedback: 'Not shipped within 21 days' });
    expect(mine.body.events.at(-1)).toMatchObject({ type: 'declined', actorRole: 'system', toStatus: 'declined' });
    expect((await mailsTo(t, customer.email, 'request_declined')).map((m) => m.text_body)).toEqual([expect.stringContaining('Not shipped within 21 days')]);
    expect(ids(await runDeadlines(t.ctx, { asOf: inDays(22) }), 'closed')).not.toContain(id);
    expect(await mailsTo(t, customer.email, 'request_declined')).toHaveLength(1);
    // the customer may submit again
    expect(await createRequest(t, customer)).toBeString();
  });

  test('two runs at once (two instances) close and mail each request once between them', async () => {
    const customer = await signInPerson(t);
    const id = await requestAt(t, 'approved', customer, admin, warehouseId);
    const { id: offer, customer: offeree } = await offered();
    const runs = await Promise.all([runDeadlines(t.ctx, { asOf: inDays(23) }), runDeadlines(t.ctx, { asOf: inDays(23) })]);
    expect(runs.flatMap((r) => ids(r, 'closed')).filter((x) => x === id)).toHaveLength(1);
    expect(runs.flatMap((r) => ids(r, 'autoAccepted')).filter((x) => x === offer)).toHaveLength(1);
    expect(await mailsTo(t, customer.email, 'request_declined')).toHaveLength(1);
    expect(await mailsTo(t, offeree.email, 'credit_assigned')).toHaveLength(1);
    expect(await ledgerRows(offer)).toHaveLength(1);
  });
});
