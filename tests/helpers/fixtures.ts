import { expect } from 'bun:test';
import { newPublicId } from '#api/integrations/images/index.ts';
import { TEST_ORIGIN, type TestApp } from './app.ts';

/** Building blocks for exchange-request tests: people, uploads, warehouses and a request at each stage. */

export interface Person {
  email: string;
  id: string;
  token: string;
}

let counter = 0;
/** A unique email per call, so tests in one file never share a customer by accident. */
export const uniqueEmail = (prefix = 'customer') => `${prefix}.${process.pid}.${++counter}.${Math.random().toString(36).slice(2, 7)}@example.com`;

export async function signInPerson(t: TestApp, email = uniqueEmail(), options: { admin?: boolean } = {}): Promise<Person> {
  const token = await t.signIn(email, options);
  const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  return { email: email.toLowerCase(), id: user.id, token };
}

/** An upload of `userId` not yet attached to a request, as POST /image/upload leaves it (row only). */
export async function uploadedImage(t: TestApp, userId: string): Promise<{ url: string; publicId: string }> {
  const publicId = newPublicId();
  const url = `/media/${publicId}.png`;
  await t.ctx.db
    .insertInto('request_images')
    .values({ request_id: null, uploaded_by: userId, public_id: publicId, url, content_type: 'image/png', byte_size: 68 })
    .execute();
  return { url, publicId };
}

export const validRequest = (images: { url: string; publicId: string }[], overrides: Record<string, unknown> = {}) => ({
  productName: 'HP 305 Black Ink Cartridge',
  brand: 'HP',
  description: 'Unused spare from a bulk order, box opened.',
  condition: 'like_new',
  images,
  ...overrides,
});

/** POST /api/exchange with one fresh upload; returns the new request's id. */
export async function createRequest(t: TestApp, customer: Person, overrides: Record<string, unknown> = {}): Promise<string> {
  const image = await uploadedImage(t, customer.id);
  const res = await t.request('POST', '/api/exchange', { token: customer.token, body: validRequest([image], overrides) });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

export const warehouseBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Bengaluru Returns Hub ${++counter}`,
  addressLine1: 'Plot 18, Peenya Industrial Area',
  addressLine2: 'Phase 2',
  city: 'Bengaluru',
  state: 'Karnataka',
  postalCode: '560058',
  country: 'India',
  contactPerson: 'Suresh Kumar',
  contactPhone: '+91 80 4000 1800',
  ...overrides,
});

export async function createWarehouse(t: TestApp, admin: Person, overrides: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const res = await t.request('POST', '/api/admin/warehouses', { token: admin.token, body: warehouseBody(overrides) });
  expect(res.status).toBe(201);
  return res.body;
}

export const shippingBody = (overrides: Record<string, unknown> = {}) => ({
  carrierName: 'Blue Dart',
  trackingNumber: 'BD123456789IN',
  shippingDate: '2026-11-20',
  notes: 'Packed in the original box',
  ...overrides,
});

export type Stage = 'pending' | 'approved' | 'shipped' | 'received' | 'credited' | 'completed' | 'declined';

/** A request of `customer` (with `fields` over the usual ones) brought to `stage` through the real API. */
export async function requestAt(t: TestApp, stage: Stage, customer: Person, admin: Person, warehouseId: string, credit = 500, fields: Record<string, unknown> = {}): Promise<string> {
  const id = await createRequest(t, customer, fields);
  const ok = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    if (r.status !== 200) throw new Error(`bringing a request to ${stage} failed: ${r.status} ${JSON.stringify(r.body)}`);
  };
  if (stage === 'pending') return id;
  if (stage === 'declined') {
    await ok(t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'declined', adminFeedback: 'Not a printer part' } }));
    return id;
  }
  await ok(t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'approved', warehouseId } }));
  if (stage === 'approved') return id;
  await ok(t.request('POST', `/api/exchange/${id}/shipping`, { token: customer.token, body: shippingBody() }));
  if (stage === 'shipped') return id;
  await ok(t.request('PUT', `/api/admin/exchange-requests/${id}/transit`, { token: admin.token, body: { transitStatus: 'received' } }));
  if (stage === 'received') return id;
  await ok(t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: credit } }));
  if (stage === 'credited') return id;
  await ok(t.request('PUT', `/api/admin/exchange-requests/${id}/status`, { token: admin.token, body: { status: 'completed' } }));
  return id;
}

/** The mails queued for `to` of one kind, oldest first. */
export async function mailsTo(t: TestApp, to: string, kind?: string) {
  let query = t.ctx.db.selectFrom('mail_outbox').selectAll().where('to_email', '=', to).orderBy('id');
  if (kind) query = query.where('kind', '=', kind);
  return query.execute();
}

/** Where a customer who declines an offer asks for the item back (the decline form's fields). */
export const RETURN_ADDRESS = { name: 'Kiran Patel', addressLine1: '5 Park Street', addressLine2: 'Flat 2', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India', phone: '+91 98300 11223' };

/**
 * A received request offered less than its quote, declined with "Send it back to me": a return to ship.
 * Needs a valuation guide entry matching validRequest's product (HP 305), so the request has a quote.
 */
export async function returnToShip(t: TestApp, customer: Person, admin: Person, warehouseId: string, address: Record<string, unknown> = RETURN_ADDRESS): Promise<string> {
  const id = await requestAt(t, 'received', customer, admin, warehouseId);
  const offer = await t.request('PUT', `/api/admin/exchange-requests/${id}/credit`, { token: admin.token, body: { creditAmount: 100, reason: 'Cracked housing' } });
  expect([offer.status, offer.body.offer?.status]).toEqual([200, 'pending']);
  const declined = await t.request('POST', `/api/exchange/${id}/offer/decline`, { token: customer.token, body: { choice: 'return', address } });
  expect([declined.status, declined.body.offer?.choice]).toEqual([200, 'return']);
  return id;
}

/** GET a PDF through the real app (request() reads bodies as text, which would mangle the bytes). */
export async function pdfOf(t: TestApp, path: string, token: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await t.app.handle(new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }));
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}
