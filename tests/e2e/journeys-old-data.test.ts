import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { connectPGlite } from '#api/db/connect.ts';
import { see, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import { tempDataDir } from '#tests/helpers/cli.ts';
import { seedMigratedDataDir } from '#tests/helpers/db.ts';
import type { RunningServer } from '#tests/helpers/server.ts';
import { signedInOnce } from './admin-helpers.ts';
import { shotAndAxe, WIDTHS } from './journey-helpers.ts';

/**
 * Data the API no longer makes but a database can hold: a decline without feedback (written before
 * feedback was required) and a request waiting three days. Written into the server's own embedded
 * database before it starts, as an older version would have left it, then read at 1280 and 390 px.
 */
let server: RunningServer;
let browser: Browser;
let dataDir: string;
let declinedId: string;
const ADMIN = 'admin@swappoints.demo';
const CUSTOMER = 'kiran.patel@example.com';

beforeAll(async () => {
  dataDir = tempDataDir();
  // a copy of a migrated database (creating one from nothing takes seconds), written to as an older version would have
  await seedMigratedDataDir(dataDir);
  const handle = await connectPGlite(join(dataDir, 'pgdata'));
  try {
    const user = await handle.db.insertInto('users').values({ email: CUSTOMER, name: null, shop_customer_id: null }).returning('id').executeTakeFirstOrThrow();
    const request = { user_id: user.id, customer_email: CUSTOMER, brand: 'Brother', description: 'Left by an older version.', condition: 'fair' as const };
    declinedId = (
      await handle.db
        .insertInto('exchange_requests')
        .values({ ...request, product_name: 'Old Declined Drum', status: 'declined', admin_feedback: null, decided_at: sql<Date>`now() - interval '1 day'` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // three days and two hours: '3 days' whatever minute the page is read in
    const waiting = await handle.db.insertInto('exchange_requests').values({ ...request, product_name: 'Waiting Toner', status: 'pending' }).returning('id').executeTakeFirstOrThrow();
    await sql`update exchange_requests set created_at = now() - interval '3 days 2 hours' where id = ${waiting.id}`.execute(handle.db);
  } finally {
    await handle.close();
  }
  ({ server, browser } = await startServerAndBrowser({ DATA_DIR: dataDir }));
  // the server loads the demo shop only into an empty database: the operator's way on one in use
  const seeded = await server.cli('demo', 'seed', '--json');
  expect({ code: seeded.code, stderr: seeded.stderr }).toEqual({ code: 0, stderr: '' });
}, 120_000);
afterAll(async () => {
  await stopServerAndBrowser({ server, browser });
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** The customer and the admin, each signed in once, at the width a test asks for. */
const signedIn = signedInOnce(() => ({ browser, server }));

describe('requests an older version left behind', () => {
  for (const [name, viewport] of WIDTHS) {
    test(`${name}: a decline without feedback says no reason was given and what the customer can do`, async () => {
      const page = await signedIn(CUSTOMER, viewport);
      await page.goto(`/exchange/${declinedId}`);
      const box = page.locator('[data-testid="next-step"][data-state="declined"]');
      await box.waitFor({ timeout: 15_000 });
      await see(box, 'Your exchange request has been declined. Please check the admin feedback.');
      await see(box, 'No reason was given.');
      await see(box, 'You can trade in another item with a new request', { exact: false });
      expect(await box.getByRole('link', { name: 'New Exchange' }).getAttribute('href')).toBe('/exchange/new');
      expect(await box.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toStartWith('mailto:');
      expect(await box.textContent()).not.toContain('Reason:');
      expect(await page.getByTestId('exchange-stepper').count()).toBe(0);
      await shotAndAxe(page, `customer-declined-no-reason-${name}`);
    });

    test(`${name}: the admin queue shows a request waiting three days as '3 days'`, async () => {
      const page = await signedIn(ADMIN, viewport);
      await page.goto('/admin');
      if (name === 'desktop') {
        const row = page.getByTestId('admin-request-row').filter({ hasText: 'Waiting Toner' });
        expect(await row.getByTestId('request-age').textContent()).toBe('3 days');
      } else {
        const card = page.getByTestId('admin-request-card').filter({ hasText: 'Waiting Toner' });
        await see(card, '3 days', { exact: false });
        expect(await card.textContent()).toMatch(/ · 3 daysView$/);
        expect(await card.getByRole('link', { name: /View/ }).isVisible()).toBe(true);
      }
      await shotAndAxe(page, `admin-queue-age-${name}`);
    });
  }
});
