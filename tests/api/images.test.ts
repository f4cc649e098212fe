import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { imageKey } from '#api/integrations/images/index.ts';
import { SESSION_COOKIE } from '#api/modules/auth/plugin.ts';
import { attachImages, MAX_UNATTACHED_UPLOADS } from '#api/modules/images/service.ts';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { databaseKinds } from '#tests/helpers/db.ts';
import { AVIF, GIF, insertRequest, isoBmff, JPEG, padTo, png, SVG, TEXT, uploadForm, WEBP, type FilePart } from '#tests/helpers/images.ts';

const PUBLIC_ID = /^[0-9a-f]{40}$/;
const MB5 = 5_242_880;

describe.each(databaseKinds())('image service: upload and serving (%s)', (kind) => {
  let t: TestApp;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.signIn('asha.rao@example.com');
    userId = (await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'asha.rao@example.com').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => t.close());

  const upload = (file?: FilePart, options: { token?: string; headers?: Record<string, string> } = { token }) =>
    t.request('POST', '/image/upload', { body: uploadForm(file), ...options });
  const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`${TEST_ORIGIN}${path}`, { headers }));
  const rowsOf = (id: string) => t.ctx.db.selectFrom('request_images').selectAll().where('uploaded_by', '=', id).execute();
  const storedFiles = () =>
    existsSync(t.ctx.settings.mediaDir) ? readdirSync(t.ctx.settings.mediaDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
  /** uploads of this suite's user do not pile up past the unattached limit */
  const clearUploads = () => t.ctx.db.deleteFrom('request_images').where('uploaded_by', '=', userId).execute();

  describe('POST /image/upload', () => {
    const accepted: [string, Uint8Array, string, string][] = [
      ['PNG', png(4, 3), 'image/png', 'png'],
      ['JPEG', JPEG, 'image/jpeg', 'jpg'],
      ['GIF', GIF, 'image/gif', 'gif'],
      ['WebP', WEBP, 'image/webp', 'webp'],
      ['AVIF', AVIF, 'image/avif', 'avif'],
    ];

    for (const [label, bytes, contentType, ext] of accepted) {
      test(`a ${label} is stored under a server-made name and served from secure_url with its type and nosniff`, async () => {
        await clearUploads();
        const res = await upload({ bytes, name: `photo of my part.${ext}`, type: contentType });
        expect(res.status).toBe(200);
        const publicId = res.body.public_id as string;
        expect(publicId).toMatch(PUBLIC_ID);
        expect(res.body.secure_url).toBe(`/media/${publicId}.${ext}`);
        // what is stored is the picture written again (decoded, without metadata): `bytes` is its size
        const size = res.body.bytes as number;
        expect(res.body).toMatchObject({ format: ext, resource_type: 'image' });

        const [row] = await rowsOf(userId);
        expect(row).toMatchObject({ public_id: publicId, request_id: null, uploaded_by: userId, content_type: contentType, byte_size: size, url: res.body.secure_url });
        expect(existsSync(join(t.ctx.settings.mediaDir, publicId.slice(0, 2), `${publicId}.${ext}`))).toBe(true);
        expect(storedFiles().some((name) => name.includes('photo'))).toBe(false);

        const served = await get(res.body.secure_url); // no token: the URL is the capability
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(contentType);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(served.headers.get('content-disposition')).toStartWith('inline');
        const servedBytes = Buffer.from(await served.arrayBuffer());
        expect(servedBytes.byteLength).toBe(size);
        const [sent, kept] = await Promise.all([sharp(bytes).metadata(), sharp(servedBytes).metadata()]);
        expect({ format: kept.format, width: kept.width, height: kept.height }).toEqual({ format: sent.format, width: sent.width, height: sent.height });
      });
    }

    test("the type comes from the bytes, never the client's name or declared type: a PNG named .txt is a PNG", async () => {
      await clearUploads();
      const res = await upload({ bytes: png(), name: 'notes.txt', type: 'text/plain' });
      expect(res.status).toBe(200);
      expect(res.body.secure_url).toEndWith('.png');
      expect((await get(res.body.secure_url)).headers.get('content-type')).toBe('image/png');
    });

    const refused: [string, FilePart][] = [
      ['a text file renamed .jpg', { bytes: TEXT, name: 'holiday.jpg', type: 'image/jpeg' }],
      ['an SVG (it can carry scripts)', { bytes: SVG, name: 'logo.svg', type: 'image/svg+xml' }],
      ['an SVG renamed .png', { bytes: SVG, name: 'logo.png', type: 'image/png' }],
      ['a HEIC photo', { bytes: isoBmff('heic', ['mif1', 'heic']), name: 'IMG_0001.heic', type: 'image/heic' }],
      ['an MP4 video', { bytes: isoBmff('isom', ['isom', 'mp41']), name: 'clip.avif', type: 'image/avif' }],
      ['an empty file', { bytes: new Uint8Array(), name: 'empty.png', type: 'image/png' }],
      ['a PNG signature without its header chunk', { bytes: png().subarray(0, 8), name: 'cut.png', type: 'image/png' }],
      ['an HTML page', { bytes: new TextEncoder().encode('<!doctype html><script>alert(1)</script>'), name: 'page.gif', type: 'image/gif' }],
      // the first bytes of an image are not enough: the file must decode (issue 25)
      ['a JPEG header followed by HTML', { bytes: new Uint8Array([...JPEG.subarray(0, 20), ...new TextEncoder().encode('<html><script>alert(1)</script></html>')]), name: 'x.jpg', type: 'image/jpeg' }],
      ['an AVIF file-type box with no picture', { bytes: isoBmff('avif', ['mif1', 'miaf']), name: 'empty.avif', type: 'image/avif' }],
      ['a PNG cut after its header chunk', { bytes: png(4, 3).subarray(0, 40), name: 'cut.png', type: 'image/png' }],
    ];
    for (const [label, file] of refused) {
      test(`${label} is refused with 415 'File {name} is not an image' and nothing is kept`, async () => {
        await clearUploads();
        const before = storedFiles().length;
        const res = await upload(file);
        expect(res.status).toBe(415);
        expect(res.body).toEqual({ error: `File ${file.name} is not an image` });
        expect(await rowsOf(userId)).toHaveLength(0);
        expect(storedFiles()).toHaveLength(before);
      });
    }

    test('a file of exactly 5MB (5242880 bytes) is accepted', async () => {
      await clearUploads();
      const res = await upload({ bytes: padTo(JPEG, MB5), name: 'big.jpg' });
      expect(res.status).toBe(200);
      expect(res.body.bytes).toBe((await rowsOf(userId))[0]!.byte_size); // the picture as stored: the padding is gone
    });

    test("one byte over 5MB is refused with 413 'File {name} is too large. Max size is 5MB'", async () => {
      await clearUploads();
      const res = await upload({ bytes: padTo(JPEG, MB5 + 1), name: 'big.jpg' });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'File big.jpg is too large. Max size is 5MB' });
      expect(await rowsOf(userId)).toHaveLength(0);
    });

    test('a 6 MB file (a body past the read cap) gets 413 JSON naming the file, without the body being read whole', async () => {
      const res = await upload({ bytes: padTo(png(), 6 * 1024 * 1024), name: 'huge photo.png' });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'File huge photo.png is too large. Max size is 5MB' });
    });

    test('a streamed 20 MB body with no Content-Length is cut off at the cap with 413 JSON', async () => {
      const boundary = 'streamed-boundary-1234';
      const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stream.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      let sent = 0;
      const chunk = new Uint8Array(1024 * 1024);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(head);
          if (sent >= 20) return controller.close();
          controller.enqueue(chunk);
          sent++;
        },
      });
      const res = await t.app.handle(
        new Request(`${TEST_ORIGIN}/image/upload`, {
          method: 'POST',
          body,
          headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          duplex: 'half',
        } as RequestInit),
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: 'File stream.jpg is too large. Max size is 5MB' });
      expect(sent).toBeLessThan(20);
    });

    test('the file name in a message is sanitised for display: last path segment, no control or bidi characters, 100 characters at most', async () => {
      const tricky = await upload({ bytes: TEXT, name: '..\\..\\secret/\u202Egpj.exe\u0007' });
      expect(tricky.status).toBe(415);
      expect(tricky.body.error).toBe('File gpj.exe is not an image');
      const long = await upload({ bytes: TEXT, name: `${'a'.repeat(300)}.jpg` });
      expect(long.body.error).toBe(`File ${'a'.repeat(99)}… is not an image`);
    });

    test('no file field gives 400 with a clear message', async () => {
      const res = await upload(undefined);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/field named "file"|"file" is missing/);
    });

    test('a file field sent as text (not a file) gives 400', async () => {
      const res = await t.request('POST', '/image/upload', { token, body: uploadForm(undefined, { file: 'iVBORw0KGgo=', upload_preset: 'x' }) });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('"file"');
    });

    test('a non-multipart body (JSON, plain text, urlencoded, none) gives 400 naming multipart/form-data', async () => {
      const bodies: [string | undefined, string | undefined][] = [
        ['{"file":"x"}', 'application/json'],
        ['hello', 'text/plain'],
        ['file=abc', 'application/x-www-form-urlencoded'],
        [undefined, undefined],
        ['--x\r\nnot really', 'multipart/form-data'], // no boundary
        ['garbage without any boundary line', 'multipart/form-data; boundary=abc'],
      ];
      for (const [body, type] of bodies) {
        const res = await t.request('POST', '/image/upload', { token, body, headers: type ? { 'content-type': type } : {} });
        expect(res.status).toBe(400);
        expect(res.body.error).toContain('multipart/form-data');
      }
    });

    test('upload_preset and cloud_name are accepted and ignored; the file alone is enough', async () => {
      await clearUploads();
      const res = await t.request('POST', '/image/upload', { token, body: uploadForm({ bytes: GIF, name: 'a.gif' }, {}) });
      expect(res.status).toBe(200);
      const odd = await t.request('POST', '/image/upload', { token, body: uploadForm({ bytes: GIF, name: 'a.gif' }, { upload_preset: '../../x', cloud_name: '<script>' }) });
      expect(odd.status).toBe(200);
    });

    test('signed-out uploads get 401 and store nothing; a bad token gets 401', async () => {
      const before = storedFiles().length;
      const rowsBefore = await t.ctx.db.selectFrom('request_images').select('id').execute();
      const anon = await upload({ bytes: png(), name: 'a.png' }, {});
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({ error: 'Please sign in to continue.' });
      const bad = await upload({ bytes: png(), name: 'a.png' }, { token: 'not-a-jwt' });
      expect(bad.status).toBe(401);
      expect(storedFiles()).toHaveLength(before);
      expect(await t.ctx.db.selectFrom('request_images').select('id').execute()).toHaveLength(rowsBefore.length);
    });

    test('the session cookie works from our own origin; a cross-site cookie upload is refused with 403', async () => {
      await clearUploads();
      const cookie = `${SESSION_COOKIE}=${token}`;
      const own = await upload({ bytes: png(), name: 'a.png' }, { headers: { cookie, origin: TEST_ORIGIN } });
      expect(own.status).toBe(200);
      const cross = await upload({ bytes: png(), name: 'a.png' }, { headers: { cookie, origin: 'https://evil.example' } });
      expect(cross.status).toBe(403);
      expect(await rowsOf(userId)).toHaveLength(1);
    });

    test(`a user holds at most ${MAX_UNATTACHED_UPLOADS} unattached uploads: concurrent uploads past it get 429, attaching frees room`, async () => {
      const other = await t.signIn('limit.tester@example.com');
      const otherId = (await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'limit.tester@example.com').executeTakeFirstOrThrow()).id;
      const results = await Promise.all(Array.from({ length: MAX_UNATTACHED_UPLOADS + 5 }, () => upload({ bytes: GIF, name: 'a.gif' }, { token: other })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(MAX_UNATTACHED_UPLOADS);
      const refusedUploads = results.filter((r) => r.status !== 200);
      expect(refusedUploads.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
      expect(refusedUploads[0]!.body.error).toContain(`${MAX_UNATTACHED_UPLOADS} uploaded images`);
      expect(await rowsOf(otherId)).toHaveLength(MAX_UNATTACHED_UPLOADS);

      const requestId = await insertRequest(t.ctx.db, otherId);
      const first = results.find((r) => r.status === 200)!.body;
      await attachImages(t.ctx.db, { userId: otherId, requestId, images: [{ url: first.secure_url, publicId: first.public_id }] });
      expect((await upload({ bytes: GIF, name: 'a.gif' }, { token: other })).status).toBe(200);
      expect((await upload({ bytes: GIF, name: 'a.gif' }, { token: other })).status).toBe(429);
      // another user is not affected by this one's uploads
      await clearUploads();
      expect((await upload({ bytes: GIF, name: 'a.gif' })).status).toBe(200);
    });
  });

  describe('GET /media/<public_id>.<ext>', () => {
    let stored: { public_id: string; secure_url: string };
    beforeAll(async () => {
      await clearUploads();
      stored = (await upload({ bytes: png(2, 2), name: 'p.png' })).body;
    });

    test('unknown, malformed or traversal paths are 404 JSON { error }', async () => {
      const paths = [
        `/media/${'0'.repeat(40)}.png`,
        `/media/${stored.public_id}.jpg`, // right id, wrong type
        `/media/${stored.public_id}.svg`,
        `/media/${stored.public_id}`,
        `/media/${stored.public_id.toUpperCase()}.png`,
        `/media/${stored.public_id}.png.png`,
        '/media/..%2F..%2Fjwt-secret',
        '/media/..%2Fmedia%2F' + stored.public_id + '.png',
        '/media/%2e%2e/jwt-secret',
        '/media/x.png',
        '/media/',
        `/media/${stored.public_id.slice(0, 2)}/${stored.public_id}.png`,
        `/media/${'a'.repeat(5000)}.png`,
      ];
      for (const path of paths) {
        const res = await get(path);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toContain('application/json');
        const body = await res.json();
        expect(typeof body.error).toBe('string');
      }
    });

    test('a repeated fetch with If-None-Match gets 304 without the body', async () => {
      const first = await get(stored.secure_url);
      const etag = first.headers.get('etag')!;
      expect(etag).toBe(`"${stored.public_id}"`);
      const again = await get(stored.secure_url, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    });

    test('an image whose row was removed by the store is gone from /media too', async () => {
      const res = await upload({ bytes: GIF, name: 'gone.gif' });
      expect((await get(res.body.secure_url)).status).toBe(200);
      await t.ctx.images.delete([imageKey(res.body.public_id, 'image/gif')]);
      expect((await get(res.body.secure_url)).status).toBe(404);
    });
  });
});
