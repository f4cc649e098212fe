import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { sql } from 'kysely';
import { UNPAGED_LIST_LIMIT } from '#api/lib/paging.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { signInPerson, type Person } from '#tests/helpers/fixtures.ts';

setDefaultTimeout(60_000);
const ROWS = UNPAGED_LIST_LIMIT + 5;

describe.each(databaseKinds())('no list answers with every row it has (%s)', (kind) => {
  let t: TestApp;
  let admin: Person;
  let customer: Person;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInPerson(t, 'admin.user@swappoints.example', { admin: true });
    customer = await signInPerson(t);
    await sql`insert into exchange_requests (user_id, customer_email, product_name, brand, description, condition)
      select ${customer.id}, ${customer.email}, 'Toner ' || n, 'HP', 'Spare', 'good' from generate_series(1, ${ROWS}) n`.execute(t.ctx.db);
    await sql`insert into warehouses (name, address_line1, city, state, postal_code, country)
      select 'Warehouse ' || lpad(n::text, 3, '0'), 'Street 1', 'Pune', 'MH', '411001', 'IN' from generate_series(1, ${ROWS}) n`.execute(t.ctx.db);
    await sql`insert into credit_ledger (user_id, exchange_request_id, type, amount, currency)
      select ${customer.id}, id, 'exchange_credit', 100, 'INR' from exchange_requests where user_id = ${customer.id}`.execute(t.ctx.db);
  });
  afterAll(() => t.close());

  const lists: [string, () => string][] = [
    ["the customer's requests", () => customer.token],
    ['the admin requests', () => admin.token],
    ['the warehouses', () => admin.token],
    ['the credit history', () => admin.token],
  ];
  const paths = ['/api/exchange', '/api/admin/exchange-requests?status=pending', '/api/admin/warehouses', '/api/admin/credit-history'];

  test.each(lists.map(([name, token], i) => [name, paths[i]!, token] as const))('%s: without paging a plain array of the first 100, the total in X-Total-Count', async (_name, path, token) => {
    const res = await t.request('GET', path, { token: token() });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(UNPAGED_LIST_LIMIT);
    expect(res.headers.get('x-total-count')).toBe(String(ROWS));
    // asked-for pages still work, and reach the rest
    const last = await t.request('GET', `${path}${path.includes('?') ? '&' : '?'}page=2&pageSize=100`, { token: token() });
    expect(last.body).toHaveLength(ROWS - 100);
    // a page that is not full, and one past the end, still give the whole list's total
    expect(last.headers.get('x-total-count')).toBe(String(ROWS));
    const past = await t.request('GET', `${path}${path.includes('?') ? '&' : '?'}page=3&pageSize=100`, { token: token() });
    expect(past.body).toHaveLength(0);
    expect(past.headers.get('x-total-count')).toBe(String(ROWS));
  });
});
