import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import { importCustomerExport } from '#api/modules/customers/service.ts';
import { grantAdmin } from '#api/modules/users/service.ts';
import { seedDemoRequests } from './requests.ts';
import { seedDemoValuation } from './valuation.ts';

const DATA = fileURLToPath(new URL('./data/', import.meta.url));
export const DEMO_ADMIN_EMAIL = 'admin@swappoints.demo';
export const DEMO_CUSTOMER_EMAIL = 'asha.rao@example.com';

export interface DemoReport {
  customers: number;
  warehouses: number;
  requests: number;
  admin: string;
}

interface WarehouseSeed {
  name: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  contactPerson?: string;
  contactPhone?: string;
  isActive?: boolean;
}

export { isDatabaseEmpty } from './empty.ts';

/**
 * A small shop to try SwapPoints with: the customers of the sample export, three warehouses
 * (one inactive), an admin, and exchange requests in every state of the workflow.
 * Running it twice changes nothing.
 */
export async function seedDemo(ctx: AppContext): Promise<DemoReport> {
  const customers = await importCustomerExport(ctx.db, { path: join(DATA, 'customers.csv') });
  const warehouses = (await Bun.file(join(DATA, 'warehouses.json')).json()) as WarehouseSeed[];
  let createdWarehouses = 0;
  for (const w of warehouses) {
    const inserted = await ctx.db
      .insertInto('warehouses')
      .values({
        name: w.name,
        address_line1: w.addressLine1,
        address_line2: w.addressLine2 ?? null,
        city: w.city,
        state: w.state,
        postal_code: w.postalCode,
        country: w.country,
        contact_person: w.contactPerson ?? null,
        contact_phone: w.contactPhone ?? null,
        is_active: w.isActive ?? true,
      })
      .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) createdWarehouses++;
  }
  await grantAdmin(ctx.db, DEMO_ADMIN_EMAIL);
  // the guide comes with the sample requests (which are quoted by it); tests that make their own requests get neither
  if (ctx.settings.demoRequests) await seedDemoValuation(ctx, DATA);
  const requests = ctx.settings.demoRequests ? await seedDemoRequests(ctx, DEMO_ADMIN_EMAIL) : 0;
  return { customers: customers.created, warehouses: createdWarehouses, requests, admin: DEMO_ADMIN_EMAIL };
}
