import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Browser, Request } from 'playwright-core';
import sharp from 'sharp';
import { PHONE, see, signedInPerson, startServerAndBrowser, stopServerAndBrowser } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** Phones take 12-megapixel photos of 5–9 MB; the server takes 5 MB at most, so the page scales them down first. */
let server: RunningServer;
let browser: Browser;
const EMAIL = 'meera.iyer@example.com';
const MB5 = 5_242_880;

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser());
}, 120_000);
afterAll(() => stopServerAndBrowser({ server, browser }), 30_000);

/** A real 4000×3000 JPEG of noise (which hardly compresses) taken with the phone on its side: EXIF orientation 6. */
async function twelveMegapixelPhoto(): Promise<Buffer> {
  const noise = sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } });
  return noise.jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer();
}

describe('a photo straight from a phone', () => {
  test('a 12-megapixel JPEG over 5 MB is scaled down in the browser, uploaded with progress, and the request is created', async () => {
    const photo = await twelveMegapixelPhoto();
    expect(photo.byteLength).toBeGreaterThan(MB5);
    expect(await sharp(photo).metadata()).toMatchObject({ width: 4000, height: 3000, orientation: 6 });

    const { page, context } = await signedInPerson(browser, server, EMAIL, PHONE);
    const uploads: Request[] = [];
    const fetched: string[] = [];
    page.on('request', (request) => {
      fetched.push(request.url());
      if (request.url().endsWith('/image/upload')) uploads.push(request);
    });
    await page.goto('/exchange/new');
    await page.getByLabel('Product Name').fill('Imaging Drum');
    await page.getByLabel('Brand').fill('Xerox');
    await page.getByLabel('Condition').selectOption({ label: 'Good (some signs of wear)' });
    await page.getByLabel('Description').fill('Photographed on my phone, straight from the camera.');
    await page.locator('input[type="file"]').setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo });
    await see(page, '1/5 images');
    await page.getByRole('progressbar', { name: 'Uploading IMG_2041.jpg' }).waitFor();
    await page.getByText('Add Photos').waitFor({ timeout: 60_000 }); // 'Uploading…' until it is stored
    expect(await page.getByText('is too large').count()).toBe(0);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await page.waitForURL(/\/exchange\/[0-9a-f-]{36}$/);
    await see(page, 'Imaging Drum');
    const id = page.url().split('/').pop()!;

    expect(uploads).toHaveLength(1); // one upload, of the scaled-down photo (the server keeps its 5 MB limit)
    // what was stored: a JPEG at most 2,560 px long, upright (the EXIF rotation applied, not dropped)
    const token = await server.apiSignIn(EMAIL);
    const request = await server.api<{ images: { url: string }[] }>('GET', `/api/exchange/${id}`, token);
    expect(request.status).toBe(200);
    expect(request.body.images).toHaveLength(1);
    const stored = Buffer.from(await (await fetch(new URL(request.body.images[0]!.url, server.url))).arrayBuffer());
    expect(stored.byteLength).toBeGreaterThan(100_000);
    expect(stored.byteLength).toBeLessThan(MB5);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([1920, 2560]);
    expect(meta.orientation ?? 1).toBe(1);

    // the pages show thumbnails, never the original; the viewer offers the original on demand
    const shown = () =>
      page.waitForFunction(() => [...document.querySelectorAll('img[alt^="Imaging Drum"]')].some((img) => (img as HTMLImageElement).complete && /\.w320\.webp$/.test((img as HTMLImageElement).currentSrc)));
    await shown();
    await page.goto('/exchange');
    await shown();
    await page.goto('/dashboard');
    await shown();
    await page.goto(`/exchange/${id}`);
    await shown();
    await page.getByRole('button', { name: 'View image 1 of 1 full screen' }).click();
    const original = request.body.images[0]!.url;
    expect(await page.getByRole('link', { name: 'Open the original photo' }).getAttribute('href')).toBe(original);
    await page.waitForFunction(() => [...document.querySelectorAll('[role="dialog"] img')].some((img) => (img as HTMLImageElement).complete && /\.w(320|1280)\.webp$/.test((img as HTMLImageElement).currentSrc)));
    const media = fetched.filter((url) => url.includes('/media/'));
    expect(media.length).toBeGreaterThan(0);
    expect(media.some((url) => url.endsWith(original))).toBe(false);
    await context.close();
  }, 180_000);
});
