import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

/**
 * GET /api/admin/credit-history/export.csv, behind the credit history's Export CSV button: the
 * history as filtered on the page, newest first, streamed in batches, safe to open in a spreadsheet.
 */

const HEADER = 'Date,User ID,Exchange ID,Type,Amount,Base,Bonus,Currency,Status,Customer Email,Transaction ID,Note,Ledger ID,Push Attempts,Pushed At,Push Error';

describe.each(databaseKinds())('credit history CSV export (%s)', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let customerToken: string;
  let asha: string;
  let meera: string;

  const csv = async (query = '', token = adminToken) => {
    const res = await t.request<string>('GET', `/api/admin/credit-history/export.csv${query}`, { token });
    return { ...res, lines: typeof res.body === 'string' ? res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n') : [] };
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await t.signIn('boss@example.com', { admin: true });
    customerToken = await t.signIn('asha.rao@example.com');
    await t.signIn('meera.iyer@example.com');
    const users = await t.ctx.db.selectFrom('users').select(['id', 'email']).execute();
    asha = users.find((u) => u.email === 'asha.rao@example.com')!.id;
    meera = users.find((u) => u.email === 'meera.iyer@example.com')!.id;
    // 1,203 credits in one statement: one created_at for all, so the batches must page on the id too
    await t.ctx.db
      .insertInto('credit_ledger')
      .values(
        Array.from({ length: 1203 }, (_, i) => ({
          user_id: i % 3 === 0 ? meera : asha,
          exchange_request_id: crypto.randomUUID(),
          type: 'exchange_credit' as const,
          amount: i + 1,
          currency: 'INR',
          push_status: i === 5 ? ('failed' as const) : ('success' as const),
          note: i === 0 ? '=HYPERLINK("http://evil.example","click"), then' : null,
        })),
      )
      .execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  test('every credit once, newest first, across batches of 500; a header row; a CSV download', async () => {
    const res = await csv();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="credit-history-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.lines[0]).toBe(HEADER);
    const rows = res.lines.slice(1);
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r.split(',')[2])).size).toBe(1203);
    const amounts = rows.map((r) => Number(r.split(',')[4]));
    expect(amounts[0]).toBe(1203);
    expect(amounts.at(-1)).toBe(1);
    expect(amounts.every((a, i) => i === 0 || a < amounts[i - 1]!)).toBe(true);
    expect(rows[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,[0-9a-f-]{36},[0-9a-f-]{36},Exchange Credit,1203\.00,1203\.00,0\.00,INR,Success,/);
  }, 60_000);

  test('q filters as the page does (part of a user ID, exchange ID or customer email, any case); status filters', async () => {
    // a part of the email, as typed into the page's search: the download has the rows the page lists
    const byEmail = await csv('?q=MEERA.IYER');
    expect(byEmail.lines).toHaveLength(1 + 401);
    const page = await t.request<{ total?: number }>('GET', '/api/admin/credit-history?q=MEERA.IYER&pageSize=1', { token: adminToken });
    expect(page.headers.get('x-total-count')).toBe('401');
    const byUser = await csv(`?q=${meera.slice(0, 18).toUpperCase()}`);
    expect(byUser.lines).toHaveLength(1 + 401);
    expect(byUser.lines.slice(1).every((l) => l.includes(`,${meera},`) && l.includes(',meera.iyer@example.com,'))).toBe(true);
    const failed = await csv('?status=failed');
    expect(failed.lines).toHaveLength(2);
    expect(failed.lines[1]).toContain(',6.00,6.00,0.00,INR,Failed,');
    expect((await csv('?q=no-such-id')).lines).toEqual([HEADER]);
  }, 60_000);

  test('a field a spreadsheet would run as a formula is written as text; commas and quotes are quoted', async () => {
    const { lines } = await csv('?status=success');
    const first = lines.find((l) => l.includes('HYPERLINK'))!;
    // the Note column, then Ledger ID, Push Attempts, Pushed At, Push Error
    expect(first).toMatch(/,"'=HYPERLINK\(""http:\/\/evil\.example"",""click""\), then",\d+,\d+,[^,]*,$/);
  }, 60_000);

  test('admins only: 401 without a session, 403 for a customer; bad filters are 400', async () => {
    expect((await t.request('GET', '/api/admin/credit-history/export.csv')).status).toBe(401);
    expect((await csv('', customerToken)).status).toBe(403);
    const bad = await t.request('GET', '/api/admin/credit-history/export.csv?status=lost', { token: adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'status must be one of pending, success, failed' });
  }, 60_000);
});
