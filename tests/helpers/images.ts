import { crc32, deflateSync } from 'node:zlib';
import type { Db } from '#api/db/connect.ts';

/** A real PNG of width × height grey pixels, chunk by chunk (signature, IHDR, IDAT, IEND). */
export function png(width = 1, height = 1): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    Buffer.from(data).copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter, no interlace
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter type 0 per row
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array())]),
  );
}

/** A 1×1 baseline JPEG that decodes (sharp wrote it). */
export const JPEG = new Uint8Array(
  Buffer.from(
    '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAUAQEAAAAAAAAAAAAAAAAAAAAA/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AAA//2Q==',
    'base64',
  ),
);
/** A 1×1 GIF89a. */
export const GIF = new Uint8Array(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
/** A 1×1 lossless WebP (RIFF … WEBP VP8L). */
export const WEBP = new Uint8Array(Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'));

/** An ISO BMFF file-type box with the given brands, then an empty `mdat`: the head of AVIF, HEIC or MP4 files. */
export function isoBmff(major: string, compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  const ftyp = Buffer.alloc(size);
  ftyp.writeUInt32BE(size, 0);
  ftyp.write(`ftyp${major}`, 4, 'latin1');
  compatible.forEach((brand, i) => ftyp.write(brand, 16 + 4 * i, 'latin1'));
  const mdat = Buffer.from([0, 0, 0, 8, 0x6d, 0x64, 0x61, 0x74]);
  return new Uint8Array(Buffer.concat([ftyp, mdat]));
}
/** A 1×1 AVIF that decodes (sharp wrote it). */
export const AVIF = new Uint8Array(
  Buffer.from(
    'AAAAHGZ0eXBhdmlmAAAAAG1pZjFhdmlmbWlhZgAAANZtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAACJpbG9jAAAAAERAAAEAAQAAAAAA+gABAAAAAAAAABoAAAAjaWluZgAAAAAAAQAAABVpbmZlAgAAAAABAABhdjAxAAAAAA5waXRtAAAAAAABAAAAVmlwcnAAAAA4aXBjbwAAAAxhdjFDgSACAAAAABRpc3BlAAAAAAAAAAEAAAABAAAAEHBpeGkAAAAAAwgICAAAABZpcG1hAAAAAAAAAAEAAQOBAgMAAAAibWRhdBIACgc4AAaQENBpMg0ZQmMEwAA0AASQQM1A',
    'base64',
  ),
);

export const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>');
export const TEXT = new TextEncoder().encode('These are my notes, not a photo.\n');

/** `head` followed by zero bytes up to `size` bytes in all. */
export function padTo(head: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(head.subarray(0, size));
  return out;
}

export interface FilePart {
  bytes: Uint8Array;
  name: string;
  type?: string;
}

/** The upload form of the spec's contract: file, upload_preset and cloud_name. */
export function uploadForm(file?: FilePart, fields: Record<string, string> = { upload_preset: 'swappoints_unsigned', cloud_name: 'demo' }): FormData {
  const form = new FormData();
  if (file) form.append('file', new File([file.bytes as Uint8Array<ArrayBuffer>], file.name, { type: file.type ?? '' }));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

/** A pending exchange request row of `userId`, inserted directly (the exchange module is not under test here). */
export async function insertRequest(db: Db, userId: string): Promise<string> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  const row = await db
    .insertInto('exchange_requests')
    .values({ user_id: userId, customer_email: user.email, product_name: 'Nozzle set', brand: 'Prusa', description: 'Used, works', condition: 'good' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
