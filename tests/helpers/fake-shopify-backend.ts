import type { Db } from '#api/db/connect.ts';
import { shopifyShop } from '#api/integrations/shop/shopify.ts';
import type { CreditPush, CustomerRef, ShopBackend } from '#api/integrations/shop/types.ts';
import { createLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';
import type { FakeShopify } from './fake-shopify.ts';

export const SHOPIFY_TOKEN = 'shpat_test_0123456789abcdef0123456789abcdef';

/** The settings that point SwapPoints at the fake as its Shopify shop (started with SHOPIFY_TOKEN). */
export const shopifyEnv = (fake: FakeShopify) => ({
  SHOP_BACKEND: 'shopify',
  SHOPIFY_ADMIN_URL: fake.url,
  SHOPIFY_ADMIN_TOKEN: SHOPIFY_TOKEN,
  SHOPIFY_API_VERSION: fake.apiVersion,
});

/**
 * The settings of a client that gives up soon, for a test whose subject is a timeout: the fake
 * holds one answer (`slow`) past it. The calls before that one (a push looks the customer up first)
 * must still be answered within it, which on a loaded machine took more than 500 ms (a clean-clone
 * run, 2026-11-29): 1.5 s leaves them room and keeps the held call's wait short.
 */
export const IMPATIENT = { SHOPIFY_TIMEOUT_MS: '1500' };

/** The Shopify backend pointed at a fake, with its log lines kept for inspection. */
export function backendFor(fake: FakeShopify, db: Db, env: Record<string, string> = {}) {
  const lines: string[] = [];
  const settings = loadSettings({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    DATA_DIR: '/tmp/swappoints-shopify-tests',
    PUBLIC_URL: 'https://swap.example.com',
    MAIL_LOG_LINKS_IN_PRODUCTION: 'true',
    ...shopifyEnv(fake),
    // generous, for a loaded machine: a timeout test passes its own short SHOPIFY_TIMEOUT_MS
    SHOPIFY_TIMEOUT_MS: '30000',
    ...env,
  });
  const shop: ShopBackend = shopifyShop(settings, db, createLogger('debug', {}, (line) => lines.push(line)));
  return { shop, lines, settings };
}

/** A SwapPoints user and an exchange credit ledger row for them, due for its push, as the credit flow leaves them. */
export async function ledgerRow(db: Db, email: string, amount: string, shopCustomerId: string | null) {
  const user = await db
    .insertInto('users')
    .values({ email, name: null, shop_customer_id: shopCustomerId })
    .onConflict((oc) => oc.column('email').doUpdateSet({ shop_customer_id: shopCustomerId }))
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('credit_ledger')
    .values({ user_id: user.id, exchange_request_id: crypto.randomUUID(), type: 'exchange_credit', amount, currency: 'INR', next_push_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const customer: CustomerRef = { userId: user.id, email, shopCustomerId };
  return {
    ledgerId: Number(row.id),
    customer,
    push: (previousAttemptUnknown = false): CreditPush => ({ ledgerId: Number(row.id), amount, currency: 'INR', customer, previousAttemptUnknown }),
    record: (transactionId: string) =>
      db.updateTable('credit_ledger').set({ push_status: 'success', external_transaction_id: transactionId }).where('id', '=', Number(row.id)).execute(),
  };
}
