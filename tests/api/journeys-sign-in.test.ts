import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { addCustomer } from '#api/modules/customers/service.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

const CUSTOMER = 'asha.rao@example.com';
const ADMIN = 'ops@swappoints.test';

describe.each(databaseKinds())('sign-in on another device and where it lands (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { SIGNIN_LIMIT_PER_EMAIL: '1000', ADMIN_EMAILS: ADMIN });
    await addCustomer(t.ctx.db, { email: CUSTOMER, name: 'Asha Rao' });
    await addCustomer(t.ctx.db, { email: 'meera.iyer@example.com' });
  }, 60_000);
  afterAll(() => t.close());

  const ask = async (email: string, next?: string) => {
    const res = await t.request('POST', '/api/auth/login', { body: { email, ...(next ? { next } : {}) } });
    expect(res.status).toBe(202);
    return new URL(await t.lastSignInLink(email)).searchParams.get('token')!;
  };

  test('the email typed on the other device must be the one the link was asked for; the wrong one leaves the link usable', async () => {
    const token = await ask(CUSTOMER);
    const wrong = await t.request('POST', '/api/auth/verify-email', { body: { email: 'meera.iyer@example.com', token } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, error: 'This sign-in link is not valid for this email address. Please request a new one.' });
    expect(wrong.body.sessionToken).toBeUndefined();
    // typed with other capitals and spaces, it is the same address
    const right = await t.request('POST', '/api/auth/verify-email', { body: { email: '  Asha.Rao@EXAMPLE.com ', token } });
    expect(right.status).toBe(200);
    expect(right.body.user.email).toBe(CUSTOMER);
  });

  test('a customer lands on /dashboard, an admin on /admin, and an admin who followed a link elsewhere goes there', async () => {
    let res = await t.request('POST', '/api/auth/verify-email', { body: { email: CUSTOMER, token: await ask(CUSTOMER) } });
    expect(res.body.next).toBe('/dashboard');
    res = await t.request('POST', '/api/auth/verify-email', { body: { email: ADMIN, token: await ask(ADMIN) } });
    expect(res.body).toMatchObject({ next: '/admin', user: { isAdmin: true } });
    res = await t.request('POST', '/api/auth/verify-email', { body: { email: ADMIN, token: await ask(ADMIN, '/admin/exchange/x?tab=2') } });
    expect(res.body.next).toBe('/admin/exchange/x?tab=2');
  });
});
