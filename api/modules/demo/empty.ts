import type { AppContext } from '#api/context.ts';
import { hasAnyUser } from '#api/modules/users/queries.ts';

/**
 * True when nobody has used this database yet: no customers, no users. A module of its own: a
 * server asks at every start, and only an empty database needs the seeding code (service.ts).
 */
export async function isDatabaseEmpty(ctx: AppContext): Promise<boolean> {
  const [customers, anyUser] = await Promise.all([ctx.db.selectFrom('shop_customers').select('id').limit(1).execute(), hasAnyUser(ctx.db)]);
  return customers.length === 0 && !anyUser;
}
