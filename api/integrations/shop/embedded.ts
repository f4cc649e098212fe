import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { compiledOnce, preparedMark } from '#api/db/prepared.ts';
import { normalizeEmail } from '#api/lib/email.ts';
import type { ShopBackend } from './types.ts';

/** A customer's balance, read by every request detail: compiled once and prepared. */
const creditTotal = compiledOnce(['userId'], (db, p) =>
  db
    .selectFrom('credit_ledger')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .modifyFront(preparedMark('credit-total'))
    .where('user_id', '=', p.userId)
    .where('push_status', '=', 'success'),
);

/**
 * The shop kept inside SwapPoints: customers (and their default addresses) come from the shop's
 * customer export (`swappoints customers import`), and a customer's store credit is what the
 * ledger credited.
 */
export function embeddedShop(db: Db, currency: string): ShopBackend {
  return {
    kind: 'embedded',

    async findCustomer(email) {
      const row = await db
        .selectFrom('shop_customers')
        .select(['id', 'shop_customer_id', 'email', 'first_name', 'last_name'])
        .where('email', '=', normalizeEmail(email))
        .executeTakeFirst();
      if (!row) return null;
      return {
        shopCustomerId: row.shop_customer_id ?? row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
      };
    },

    async getBalance(customer) {
      const [row] = await creditTotal(db, { userId: customer.userId });
      return { amount: Number(row!.total), currency };
    },

    async customerAddress(customer) {
      const row = await db
        .selectFrom('shop_customers as c')
        .innerJoin('shop_customer_addresses as a', 'a.customer_id', 'c.id')
        .select(['c.first_name', 'c.last_name', 'a.address_line1', 'a.address_line2', 'a.city', 'a.state', 'a.postal_code', 'a.country_code', 'a.phone'])
        .where('c.email', '=', normalizeEmail(customer.email))
        .executeTakeFirst();
      if (!row) return null;
      return {
        name: [row.first_name, row.last_name].filter(Boolean).join(' ') || null,
        phone: row.phone,
        addressLine1: row.address_line1,
        addressLine2: row.address_line2,
        city: row.city,
        state: row.state,
        postalCode: row.postal_code,
        countryCode: row.country_code,
      };
    },

    async pushCredit(push) {
      // Crediting the embedded shop is recording the ledger row, which the caller has done.
      return { status: 'success', transactionId: `embedded-${push.ledgerId}` };
    },
  };
}
