import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import type { CreditPush, ShopBackend } from '#api/integrations/shop/types.ts';
import { NO_MATCH } from '#api/modules/valuation/rules.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { createRequest, createWarehouse, mailsTo, shippingBody, signInPerson, uploadedImage, validRequest, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);

describe.each(databaseKinds())('valuation guide, quotes and bonus campaigns (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  let warehouseId: string;

  const asAdmin = (method: string, path: string, body?: unknown) => t.request(method, path, { token: admin.token, body });
  const quote = (brand: string, productName: string, condition: string) =>
    t.request('GET', `/api/valuation/quote?${new URLSearchParams({ brand, productName, condition })}`, { token: customer.token });
  const entry = async (brand: string, model: string, name: string, baseValue: number) => {
    const res = await asAdmin('POST', '/api/admin/valuation/entries', { brand, model, name, baseValue });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  };
  const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  /** A request of the customer for `fields`, brought to received. */
  async function receivedRequest(fields: Record<string, unknown>): Promise<string> {
    const id = await createRequest(t, customer, fields);
    const ok = (r: { status: number; body: unknown }) => expect([r.status, r.body]).toEqual([200, expect.anything()]);
    ok(await asAdmin('PUT', `/api/admin/exchange-requests/${id}/status`, { status: 'approved', warehouseId }));
    ok(await t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() }));
    ok(await asAdmin('PUT', `/api/admin/exchange-requests/${id}/transit`, { transitStatus: 'received' }));
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'valuer@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    warehouseId = (await createWarehouse(t, admin)).id;
    await entry('HP', '88A', 'HP 88A Black Toner (CC388A)', 1000);
    await entry('HP', 'CC388A', 'HP 88A Black Toner, by part number', 1200);
    await entry('HP', '8', 'Any HP part with an 8', 50);
    await entry('Canon', 'PG-245', 'Canon PG-245 Black Ink', 600);
  });
  afterAll(() => t.close());

  describe('GET /api/valuation/quote', () => {
    test('the longest pattern of the same brand wins, matched case-insensitively inside the product name', async () => {
      const res = await quote('hp', 'hp 88a toner cartridge, boxed', 'new');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ eligible: true, estimate: 1000, bonus: 0, currency: 'INR', match: { id: expect.any(Number), brand: 'HP', model: '88A', name: 'HP 88A Black Toner (CC388A)' } });
      const longer = await quote('HP', 'Original HP CC388A cartridge', 'good');
      expect(longer.body).toMatchObject({ eligible: true, estimate: 720, match: { model: 'CC388A' } });
      // the same pattern under another brand does not match
      const otherBrand = await quote('Canon', 'Canon 88A lookalike', 'new');
      expect(otherBrand.body).toEqual({ eligible: true, estimate: null, bonus: null, currency: 'INR', match: null });
    });

    test('a pattern longer than the index key, with spaces or accents, is found anywhere in the name, its end included', async () => {
      await entry('Brother', 'TN-2420 High Yield', 'Brother TN-2420 High Yield Toner', 900);
      await entry('Brother', 'TN-2420', 'Brother TN-2420 Toner', 700);
      await entry('Brother', 'Tête-DR2400', 'Brother drum, accented', 500);
      expect((await quote('Brother', 'Original brother tn-2420 HIGH yield', 'new')).body).toMatchObject({ estimate: 900, match: { model: 'TN-2420 High Yield' } });
      expect((await quote('Brother', 'brother tn-2420 high', 'new')).body).toMatchObject({ estimate: 700, match: { model: 'TN-2420' } });
      expect((await quote('Brother', 'TÊTE-DR2400', 'new')).body).toMatchObject({ estimate: 500, match: { model: 'Tête-DR2400' } });
      expect((await quote('Brother', 'TN-242 toner', 'new')).body).toMatchObject({ estimate: null, match: null });
    });

    test('estimate = base × the condition multiplier, whole units; the multipliers are editable', async () => {
      const byCondition: Record<string, number> = {};
      for (const condition of ['new', 'like_new', 'very_good', 'good', 'fair', 'poor']) byCondition[condition] = (await quote('Canon', 'Canon PG-245 XL', condition)).body.estimate;
      expect(byCondition).toEqual({ new: 600, like_new: 510, very_good: 450, good: 360, fair: 240, poor: 120 });
      const changed = await asAdmin('PUT', '/api/admin/valuation/multipliers', { fair: 45.5 });
      expect(changed.status).toBe(200);
      expect(changed.body).toContainEqual({ condition: 'fair', percent: 45.5 });
      expect((await quote('Canon', 'Canon PG-245 XL', 'fair')).body.estimate).toBe(273);
      expect((await asAdmin('PUT', '/api/admin/valuation/multipliers', { fair: 140 })).status).toBe(400);
      await asAdmin('PUT', '/api/admin/valuation/multipliers', { fair: 40 });
    });

    test('no match: eligible with a null estimate; an inactive entry does not match; an invalid condition is 422', async () => {
      expect((await quote('Epson', 'Epson T6641 ink', 'good')).body).toEqual({ eligible: true, estimate: null, bonus: null, currency: 'INR', match: null });
      const inactive = await entry('Epson', 'T6641', 'Epson T6641', 300);
      await asAdmin('PUT', `/api/admin/valuation/entries/${inactive.id}`, { brand: 'Epson', model: 'T6641', name: 'Epson T6641', baseValue: 300, isActive: false });
      expect((await quote('Epson', 'Epson T6641 ink', 'good')).body.match).toBeNull();
      const bad = await quote('HP', 'HP 88A', 'excellent');
      expect(bad.status).toBe(422);
      expect(bad.body.error).toContain('Please choose a valid condition');
      expect((await t.request('GET', '/api/valuation/quote?brand=HP&productName=x&condition=new')).status).toBe(401);
    });

    test('a rule refuses a brand or one model of it with its reason; the minimum refuses what is worth less', async () => {
      expect((await asAdmin('POST', '/api/admin/valuation/rules', { brand: 'Xerox', reason: 'We do not take Xerox parts.' })).status).toBe(201);
      expect((await asAdmin('POST', '/api/admin/valuation/rules', { brand: 'HP', model: 'remanufactured', reason: 'We take only original HP cartridges.' })).status).toBe(201);
      expect((await asAdmin('POST', '/api/admin/valuation/rules', { brand: 'xerox', reason: 'again' })).status).toBe(409);
      expect((await quote('XEROX', 'Xerox 106R drum', 'new')).body).toEqual({ eligible: false, reason: 'We do not take Xerox parts.' });
      expect((await quote('HP', 'HP 88A Remanufactured toner', 'new')).body).toEqual({ eligible: false, reason: 'We take only original HP cartridges.' });

      expect((await asAdmin('PUT', '/api/admin/valuation/minimum', { minimumValue: 100 })).body).toEqual({ minimumValue: 100, currency: 'INR' });
      // the 8 pattern: 50 × 100 % is below 100
      expect((await quote('HP', 'HP 8 spring', 'new')).body).toEqual({ eligible: false, reason: "We can't take this item: it is worth less than ₹100." });
      expect((await quote('HP', 'HP 88A', 'poor')).body).toMatchObject({ eligible: true, estimate: 200 });
      // no match cannot be below the minimum: it is valued after inspection
      expect((await quote('Brother', 'Brother DR-2455 drum', 'poor')).body).toMatchObject({ eligible: true, estimate: null });
      await asAdmin('PUT', '/api/admin/valuation/minimum', { minimumValue: 0 });
    });

    test('a campaign adds its bonus only inside its window and for its brand; the best running one wins', async () => {
      const past = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Last year', kind: 'percent', value: 50, startsAt: dayOffset(-30), endsAt: dayOffset(-2) });
      const future = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Next month', kind: 'amount', value: 500, startsAt: dayOffset(10), endsAt: dayOffset(20) });
      const canon = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Canon week', kind: 'amount', value: 75, brand: 'canon', startsAt: dayOffset(-1), endsAt: dayOffset(1) });
      expect([past.status, future.status, canon.status]).toEqual([201, 201, 201]);
      expect(canon.body).toMatchObject({ running: true, brand: 'canon', kind: 'amount', value: 75 });
      expect((await quote('HP', 'HP 88A', 'new')).body.bonus).toBe(0);
      expect((await quote('Canon', 'Canon PG-245', 'new')).body).toMatchObject({ estimate: 600, bonus: 75 });
      const all = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Diwali', kind: 'percent', value: 10, startsAt: dayOffset(-1), endsAt: dayOffset(1) });
      expect((await quote('Canon', 'Canon PG-245', 'new')).body.bonus).toBe(75); // 75 beats 10 % of 600
      expect((await quote('HP', 'HP 88A', 'new')).body.bonus).toBe(100);
      expect((await asAdmin('POST', `/api/admin/valuation/campaigns/${canon.body.id}/end`)).body).toMatchObject({ running: false });
      expect((await quote('Canon', 'Canon PG-245', 'new')).body.bonus).toBe(60);
      expect((await asAdmin('POST', `/api/admin/valuation/campaigns/${all.body.id}/end`)).status).toBe(200);
      expect((await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Bad', kind: 'percent', value: 10, startsAt: dayOffset(2), endsAt: dayOffset(1) })).status).toBe(400);
      expect((await asAdmin('POST', '/api/admin/valuation/campaigns/999999/end')).status).toBe(404);
    });
  });

  describe('the stored quote and the server re-check', () => {
    test('POST /api/exchange stores the quote; GET /api/exchange/{id} and the admin detail show it', async () => {
      const id = await createRequest(t, customer, { brand: 'HP', productName: 'HP 88A Toner Cartridge', condition: 'good' });
      const mine = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
      expect(mine.body.quote).toEqual({ estimate: 600, bonus: 0, currency: 'INR' });
      const detail = await asAdmin('GET', `/api/admin/exchange-requests/${id}`);
      expect(detail.body.quote).toEqual({ estimate: 600, bonus: 0, currency: 'INR' });
      expect(detail.body.creditGuide.match).toMatchObject({ model: '88A', baseValue: 1000 });
      const noMatch = await createRequest(t, customer, { brand: 'Lexmark', productName: 'Lexmark roller' });
      expect((await t.request('GET', `/api/exchange/${noMatch}`, { token: customer.token })).body.quote).toBeNull();
    });

    test('an ineligible item is refused with 409 and the reason; nothing is created', async () => {
      // a rule of its own (the rules test makes the Xerox one), so this holds in any order
      expect((await asAdmin('POST', '/api/admin/valuation/rules', { brand: 'Ricoh', reason: 'We do not take Ricoh parts.' })).status).toBe(201);
      const image = await uploadedImage(t, customer.id);
      const before = await t.ctx.db.selectFrom('exchange_requests').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      const res = await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([image], { brand: 'Ricoh', productName: 'Ricoh drum' }) });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'We do not take Ricoh parts.' });
      const after = await t.ctx.db.selectFrom('exchange_requests').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  });

  describe('credit with the guide', () => {
    test('below the quote needs a reason; the reason and the inspection photos reach the customer and the mail', async () => {
      const id = await receivedRequest({ brand: 'HP', productName: 'HP 88A Toner', condition: 'like_new' });
      const guide = (await asAdmin('GET', `/api/admin/exchange-requests/${id}`)).body.creditGuide;
      // the suggested credit: base × the multiplier of the confirmed condition
      expect(guide.match.baseValue * guide.multipliers.find((m: { condition: string }) => m.condition === 'fair').percent / 100).toBe(400);
      const refused = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400 });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('The credit is below the ₹850 the customer was quoted: please give a reason.');
      const tooLong = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'x'.repeat(2001) });
      expect([tooLong.status, tooLong.body]).toEqual([400, { error: 'Reason for a credit below the quote can be at most 2000 characters.' }]);
      const noteTooLong = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Cracked drum housing', additionalFeedback: 'x'.repeat(10_001) });
      expect([noteTooLong.status, noteTooLong.body]).toEqual([400, { error: 'Note can be at most 10000 characters.' }]);
      expect(await t.ctx.db.selectFrom('credit_ledger').select('id').where('exchange_request_id', '=', id).execute()).toHaveLength(0);
      const photo = await uploadedImage(t, admin.id);
      const offered = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 400, reason: 'Cracked drum housing', inspectionImages: [photo] });
      expect(offered.status).toBe(200);
      // below the quote the credit is an offer the customer accepts (issue 24); accepting gives it as before
      expect(offered.body).toMatchObject({ creditedAt: null, offer: { amount: 400, quotedAmount: 850, reason: 'Cracked drum housing', status: 'pending' } });
      const res = await t.request('POST', `/api/exchange/${id}/offer/accept`, { token: customer.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ creditAmount: 400, creditReason: 'Cracked drum housing', quote: { estimate: 850, bonus: 0 } });
      const mine = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
      expect(mine.body).toMatchObject({ creditReason: 'Cracked drum housing', inspectionImages: [photo], creditBreakdown: { base: 400, bonus: 0, campaignName: null } });
      expect(mine.body.images).not.toContainEqual(photo);
      const [mail] = await mailsTo(t, customer.email, 'credit_assigned').then((m) => m.slice(-1));
      expect(mail!.text_body).toContain('You were quoted ₹850 when you submitted it; after inspection we credited ₹400.');
      expect(mail!.text_body).toContain('Why the credit is below the quote: Cracked drum housing');
      expect(mail!.text_body).toContain(`Inspection photos: http://localhost:3000${photo.url}`);
    });

    test('at or above the quote no reason is asked; a running campaign adds its bonus, kept apart in the ledger and the history', async () => {
      const campaign = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Canon fortnight', kind: 'percent', value: 12.5, brand: 'Canon', startsAt: dayOffset(-1), endsAt: dayOffset(1) });
      const id = await receivedRequest({ brand: 'Canon', productName: 'Canon PG-245 Black', condition: 'new' });
      expect((await t.request('GET', `/api/exchange/${id}`, { token: customer.token })).body.quote).toEqual({ estimate: 600, bonus: 75, currency: 'INR' });
      const res = await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 650 });
      expect(res.status).toBe(200);
      expect(res.body.creditAmount).toBe(731); // 650 + round(81.25)
      const ledger = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).executeTakeFirstOrThrow();
      expect([Number(ledger.amount), Number(ledger.base_amount), Number(ledger.bonus_amount), Number(ledger.campaign_id)]).toEqual([731, 650, 81, campaign.body.id]);
      const history = await asAdmin('GET', `/api/admin/credit-history?q=${id}`);
      expect(history.body).toEqual([expect.objectContaining({ amount: 731, baseAmount: 650, bonusAmount: 81 })]);
      const mine = await t.request('GET', `/api/exchange/${id}`, { token: customer.token });
      expect(mine.body.creditBreakdown).toEqual({ base: 650, bonus: 81, campaignName: 'Canon fortnight' });
      await asAdmin('POST', `/api/admin/valuation/campaigns/${campaign.body.id}/end`);
    });

    test("a campaign named '… bonus' reads once in the mail and the timeline, never 'bonus bonus'", async () => {
      const campaign = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Canon trade-in bonus', kind: 'amount', value: 40, brand: 'Canon', startsAt: dayOffset(-1), endsAt: dayOffset(1) });
      const id = await receivedRequest({ brand: 'Canon', productName: 'Canon PG-245 Black', condition: 'new' });
      expect((await asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 600 })).status).toBe(200);
      const [mail] = await mailsTo(t, customer.email, 'credit_assigned').then((m) => m.slice(-1));
      expect(mail!.text_body).toContain('includes a ₹40 Canon trade-in bonus on top of ₹600.');
      const detail = await asAdmin('GET', `/api/admin/exchange-requests/${id}`);
      const texts = JSON.stringify(detail.body.events);
      expect(texts).toContain('₹600 + ₹40 Canon trade-in bonus');
      expect(`${mail!.text_body} ${texts}`).not.toMatch(/bonus bonus/i);
      await asAdmin('POST', `/api/admin/valuation/campaigns/${campaign.body.id}/end`);
    });

    test('20 concurrent assignments with a bonus: one 200, one ledger row with base and bonus, one push of the total', async () => {
      const campaign = await asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Flat 100', kind: 'amount', value: 100, brand: 'HP', startsAt: dayOffset(-1), endsAt: dayOffset(1) });
      const id = await receivedRequest({ brand: 'HP', productName: 'HP 88A', condition: 'new' });
      const pushes: CreditPush[] = [];
      const embedded = t.ctx.shop;
      t.ctx.shop = { ...embedded, pushCredit: async (push) => (pushes.push(push), await Bun.sleep(20), embedded.pushCredit(push)) } satisfies ShopBackend;
      let responses;
      try {
        responses = await Promise.all(Array.from({ length: 20 }, (_, i) => asAdmin('PUT', `/api/admin/exchange-requests/${id}/credit`, { creditAmount: 1000 + i })));
      } finally {
        t.ctx.shop = embedded;
      }
      expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
      const winner = responses.find((r) => r.status === 200)!;
      const ledger = await t.ctx.db.selectFrom('credit_ledger').selectAll().where('exchange_request_id', '=', id).execute();
      expect(ledger).toHaveLength(1);
      const base = Number(ledger[0]!.base_amount);
      expect([Number(ledger[0]!.bonus_amount), Number(ledger[0]!.amount)]).toEqual([100, base + 100]);
      expect(winner.body.creditAmount).toBe(base + 100);
      expect(pushes.map((p) => [p.ledgerId, Number(p.amount)])).toEqual([[ledger[0]!.id, base + 100]]);
      await asAdmin('POST', `/api/admin/valuation/campaigns/${campaign.body.id}/end`);
    });
  });

  describe('admin guide CRUD', () => {
    test('entries: required fields, unique brand + model whatever the case, search and paging with the total', async () => {
      const missing = await asAdmin('POST', '/api/admin/valuation/entries', { brand: 'HP' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('Please fill in all required fields: Model pattern, Name, Base value');
      expect((await asAdmin('POST', '/api/admin/valuation/entries', { brand: 'hp', model: '88a', name: 'dup', baseValue: 1 })).body).toEqual({ error: 'The guide already has an entry for hp 88a.' });
      expect((await asAdmin('POST', '/api/admin/valuation/entries', { brand: 'HP', model: 'X', name: 'n', baseValue: -1 })).status).toBe(400);
      const page = await asAdmin('GET', '/api/admin/valuation/entries?q=88a&pageSize=1&page=2');
      expect(page.headers.get('x-total-count')).toBe('2');
      expect(page.body).toHaveLength(1);
      expect((await t.request('GET', '/api/admin/valuation/entries', { token: customer.token })).status).toBe(403);
      const gone = await entry('Samsung', 'MLT-D111S', 'Samsung D111S', 400);
      expect((await asAdmin('DELETE', `/api/admin/valuation/entries/${gone.id}`)).status).toBe(200);
      expect((await asAdmin('DELETE', `/api/admin/valuation/entries/${gone.id}`)).status).toBe(404);
      expect((await asAdmin('PUT', '/api/admin/valuation/entries/abc', { brand: 'a', model: 'b', name: 'c', baseValue: 1 })).status).toBe(404);
    });

    test('every refusal names the field as the form labels it; text past its limit gets the sentence the form shows', async () => {
      const long = (n: number) => 'x'.repeat(n + 1);
      const entry = (body: object) => asAdmin('POST', '/api/admin/valuation/entries', { brand: 'Epson', model: 'T664', name: 'Epson T664', baseValue: 300, ...body });
      expect((await entry({ brand: long(100) })).body.error).toBe('Brand can be at most 100 characters.');
      expect((await entry({ model: long(100) })).body.error).toBe('Model pattern can be at most 100 characters.');
      expect((await entry({ name: long(200) })).body.error).toBe('Name can be at most 200 characters.');
      expect((await entry({ isActive: 'yes' })).body.error).toBe('Active must be on or off (true or false).');
      const rule = await asAdmin('POST', '/api/admin/valuation/rules', { brand: 'Epson', reason: long(500) });
      expect([rule.status, rule.body]).toEqual([400, { error: 'Reason customers see can be at most 500 characters.' }]);
      const campaign = (body: object) => asAdmin('POST', '/api/admin/valuation/campaigns', { name: 'Monsoon', kind: 'percent', value: 5, startsAt: dayOffset(0), endsAt: dayOffset(3), ...body });
      expect((await campaign({ name: long(200) })).body.error).toBe('Name can be at most 200 characters.');
      expect((await campaign({ startsAt: undefined, endsAt: undefined })).body.error).toBe('Please fill in all required fields: From, Until');
      expect((await campaign({ endsAt: dayOffset(-3) })).body.error).toBe('From and Until must be dates (yyyy-mm-dd), with Until on or after From.');
      expect((await campaign({ kind: 'double' })).body.error).toBe('Bonus must be a percentage or a fixed amount.');
      for (const res of [await entry({ brand: long(100) }), await campaign({ kind: 'double' }), await entry({ isActive: 'yes' })]) {
        expect(res.body.error).not.toMatch(/baseValue|isActive|startsAt|endsAt/);
      }
    });

    test('every valuation call is in the OpenAPI document', async () => {
      const doc = await t.request('GET', '/api/docs/json');
      const paths = Object.keys(doc.body.paths);
      for (const p of ['/api/valuation/quote', '/api/admin/valuation/entries', '/api/admin/valuation/entries/{id}', '/api/admin/valuation/multipliers', '/api/admin/valuation/rules', '/api/admin/valuation/minimum', '/api/admin/valuation/campaigns', '/api/admin/valuation/campaigns/{id}/end']) {
        expect(paths).toContain(p);
      }
    });
  });
});

test('NO_MATCH is the issue’s text', () => expect(NO_MATCH).toBe('We will value this item after inspection.'));
