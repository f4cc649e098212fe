import { expect } from 'bun:test';
import type { TestApp } from './app.ts';
import { createWarehouse, requestAt, signInPerson, type Person } from './fixtures.ts';

/** What parcel tests start from: the people, the warehouse and a request with its prepaid label. */

/** A customer's pickup address for a prepaid label (the label form's fields). */
export const PICKUP = { name: 'Asha Rao', phone: '98450 12345', addressLine1: '14 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001' };

/**
 * An admin and a warehouse for requests to be sent to; for each of `quotes`, a valuation guide entry for
 * that product at 1000, so a request for it has a quote and a credit below it is a revised offer.
 */
export async function parcelDesk(t: TestApp, ...quotes: { brand: string; model: string; name: string }[]): Promise<{ admin: Person; warehouseId: string }> {
  const admin = await signInPerson(t, undefined, { admin: true });
  const warehouseId = (await createWarehouse(t, admin)).id;
  for (const quote of quotes) {
    const entry = await t.request('POST', '/api/admin/valuation/entries', { token: admin.token, body: { ...quote, baseValue: 1000 } });
    expect(entry.status).toBe(201);
  }
  return { admin, warehouseId };
}

/** An approved request of `customer` with a prepaid label booked from `pickup` (POST /api/exchange/{id}/label): its id and the label's AWB. */
export async function labelledRequest(t: TestApp, customer: Person, admin: Person, warehouseId: string, pickup: Record<string, string> = PICKUP): Promise<{ id: string; trackingNumber: string }> {
  const id = await requestAt(t, 'approved', customer, admin, warehouseId);
  const label = await t.request('POST', `/api/exchange/${id}/label`, { token: customer.token, body: pickup });
  expect(label.status).toBe(201);
  return { id, trackingNumber: label.body.trackingNumber };
}
