import { expect } from 'bun:test';
import { png } from './images.ts';
import type { RunningServer } from './server.ts';

/** Exchange requests made through the API, as a customer's browser would make them. */

export interface RequestFields {
  productName: string;
  brand: string;
  description: string;
  condition: string;
}

/** A customer's new pending request: a real PNG to POST /image/upload, then POST /api/exchange; returns its id. */
export async function submitRequestThroughApi(server: RunningServer, token: string, fields: RequestFields): Promise<string> {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(png(16, 12))], 'photo.png', { type: 'image/png' }));
  form.append('upload_preset', 'swappoints');
  form.append('cloud_name', 'swappoints');
  const upload = await fetch(`${server.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(upload.status).toBe(200);
  const image = (await upload.json()) as { secure_url: string; public_id: string };
  const created = await server.api<{ id: string }>('POST', '/api/exchange', token, { ...fields, images: [{ url: image.secure_url, publicId: image.public_id }] });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** The customer's shipping details, through the API (POST /api/exchange/{id}/shipping). */
export async function submitShippingThroughApi(server: RunningServer, token: string, id: string, carrierName = 'Delhivery', trackingNumber = 'DLV123456'): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const shipped = await server.api('POST', `/api/exchange/${id}/shipping`, token, { carrierName, trackingNumber, shippingDate: today, notes: 'Boxed' });
  expect(shipped.status).toBe(200);
}
