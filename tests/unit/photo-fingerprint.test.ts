import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { differenceHash, fingerprintPhoto, hammingDistance } from '#api/modules/images/fingerprint.ts';
import { DUPLICATE_PHOTO_MAX_DISTANCE, entriesMatching, parseBlockEntry } from '#api/modules/risk/rules.ts';

const DIR = 'api/modules/demo/data/images';
const photos = readdirSync(DIR)
  .filter((f) => f.endsWith('.jpg'))
  .map((name) => ({ name, bytes: new Uint8Array(readFileSync(`${DIR}/${name}`)) }));
const hash = async (bytes: Uint8Array | Buffer) => (await differenceHash(new Uint8Array(bytes)))!;

describe('the duplicate-photo threshold (DUPLICATE_PHOTO_MAX_DISTANCE = 5)', () => {
  test('catches every demo photo re-saved at JPEG quality 30 and 50, resized to a half, a third and double, and converted to PNG', async () => {
    for (const { name, bytes } of photos) {
      const original = await hash(bytes);
      const copies = {
        q30: await sharp(bytes).jpeg({ quality: 30 }).toBuffer(),
        q50: await sharp(bytes).jpeg({ quality: 50 }).toBuffer(),
        half: await sharp(bytes).resize(320).jpeg({ quality: 80 }).toBuffer(),
        third: await sharp(bytes).resize(213).jpeg({ quality: 80 }).toBuffer(),
        double: await sharp(bytes).resize(1280).jpeg().toBuffer(),
        png: await sharp(bytes).png().toBuffer(),
      };
      for (const [how, copy] of Object.entries(copies)) {
        const distance = hammingDistance(original, await hash(copy));
        expect({ name, how, caught: distance <= DUPLICATE_PHOTO_MAX_DISTANCE }).toEqual({ name, how, caught: true });
      }
    }
  });

  test('leaves every pair of different demo photos apart (the closest pair, two toner shots on one backdrop, is 7 bits away)', async () => {
    const hashes = await Promise.all(photos.map((p) => hash(p.bytes)));
    let closest = 64;
    for (let i = 0; i < hashes.length; i++) for (let j = i + 1; j < hashes.length; j++) closest = Math.min(closest, hammingDistance(hashes[i]!, hashes[j]!));
    expect(photos.length).toBeGreaterThanOrEqual(6);
    expect(closest).toBeGreaterThan(DUPLICATE_PHOTO_MAX_DISTANCE);
  });

  test('a photo turned upside down is a different picture to the hash', async () => {
    const { bytes } = photos[0]!;
    expect(hammingDistance(await hash(bytes), await hash(await sharp(bytes).rotate(180).toBuffer()))).toBeGreaterThan(DUPLICATE_PHOTO_MAX_DISTANCE);
  });

  test('fingerprintPhoto gives the SHA-256 of the exact bytes and the hash as a signed 64-bit decimal; bytes that do not decode have no dHash', async () => {
    const { bytes } = photos[0]!;
    const print = await fingerprintPhoto(bytes);
    expect(print.sha256).toBe(new Bun.CryptoHasher('sha256').update(bytes).digest('hex'));
    expect(BigInt(print.dhash!)).toBe(await hash(bytes));
    expect(BigInt(print.dhash!)).toBeGreaterThanOrEqual(-(2n ** 63n));
    expect(BigInt(print.dhash!)).toBeLessThan(2n ** 63n);
    expect((await fingerprintPhoto(new TextEncoder().encode('not an image'))).dhash).toBeNull();
  });

  test('hammingDistance counts differing bits across the sign bit', () => {
    expect(hammingDistance(0n, 0n)).toBe(0);
    expect(hammingDistance(-1n, 0n)).toBe(64);
    expect(hammingDistance(BigInt.asIntN(64, 1n << 63n), 0n)).toBe(1);
    expect(hammingDistance(5n, 3n)).toBe(2);
  });
});

describe('block list entries', () => {
  test('an email or @domain is kept trimmed and in lower case; anything else is refused', () => {
    expect(parseBlockEntry('  Asha.Rao@Example.COM ')).toBe('asha.rao@example.com');
    expect(parseBlockEntry('@Mail.Example.in')).toBe('@mail.example.in');
    for (const bad of [undefined, null, '', ' ', '@', 'asha', '@localhost', 'a@b', 'a b@example.com', '@-bad.com', `${'a'.repeat(250)}@example.com`]) {
      expect(parseBlockEntry(bad)).toBeNull();
    }
  });

  test('an address is matched by itself, its domain and every parent domain', () => {
    expect(entriesMatching('Ravi@Mail.Example.co.in')).toEqual(['ravi@mail.example.co.in', '@mail.example.co.in', '@example.co.in', '@co.in']);
  });
});

test('a flat picture has no dHash to compare by (every blank image would match every other): only its exact bytes count', async () => {
  const flat = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).png().toBuffer());
  const print = await fingerprintPhoto(flat);
  expect(print.dhash).toBeNull();
  expect(print.sha256).toMatch(/^[0-9a-f]{64}$/);
});
