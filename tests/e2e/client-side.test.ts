import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import sharp from 'sharp';
import { hydrated, newPerson, PHONE, see, signedInPerson, signInThroughPages, useServerAndBrowser } from '#tests/helpers/browser.ts';
import { ROOT } from '#tests/helpers/cli.ts';

/**
 * What the pages do in the browser on their own, on one server and one browser with the default
 * settings (four files once, each starting both for a few tests): input typed before React takes
 * over, the inlined stylesheet, the sign-in page's answers to a broken proxy, and a phone photo
 * scaled down before upload. Each test opens its own browser context and uses its own data.
 */
const app = useServerAndBrowser();

// Typing before the page has finished loading: on a slow phone
// the server's form shows a second or more before React takes it over. What a person types in that
// time must still be there, and be what is sent, once the page is live. The page's scripts are held
// back while the test types, as a slow link would hold them.
/** Opens `path` in a new tab of `context` with its scripts held; returns the tab and what lets them through. */
async function openWithScriptsHeld(context: BrowserContext, path: string): Promise<{ page: Page; release: () => Promise<void> }> {
  const page = await context.newPage();
  const held: Route[] = [];
  let holding = true;
  await page.route('**/*.js', (route) => void (holding ? held.push(route) : route.continue()));
  await page.goto(path, { waitUntil: 'commit' });
  return {
    page,
    release: async () => {
      holding = false;
      for (const route of held) await route.continue();
      await hydrated(page);
    },
  };
}

describe('typing before the page has finished loading', () => {
  test('the sign-in email typed early is kept, and the link is sent to it', async () => {
    const { context } = await newPerson(app.browser, app.server);
    const { page, release } = await openWithScriptsHeld(context, '/email-signin');
    await page.getByLabel('Email address').fill('asha.rao@example.com');
    expect(await page.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true); // not live yet
    await release();
    expect(await page.getByLabel('Email address').inputValue()).toBe('asha.rao@example.com');
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page, "Account found for asha.rao@example.com. We've emailed you a sign-in link.");
    await context.close();
  }, 60_000);

  test('the new request form keeps the product, brand, condition and description typed early', async () => {
    const { context } = await signedInPerson(app.browser, app.server, 'asha.rao@example.com');
    const { page, release } = await openWithScriptsHeld(context, '/exchange/new');
    await page.getByLabel(/^Product Name/).fill('HP 680 Black Ink Cartridge');
    await page.getByLabel(/^Brand/).fill('HP');
    await page.getByLabel(/^Condition/).selectOption('good');
    await page.getByLabel(/^Description/).fill('Half used, sealed nozzle.');
    await release();
    expect(await page.getByLabel(/^Product Name/).inputValue()).toBe('HP 680 Black Ink Cartridge');
    expect(await page.getByLabel(/^Brand/).inputValue()).toBe('HP');
    expect(await page.getByLabel(/^Condition/).inputValue()).toBe('good');
    expect(await page.getByLabel(/^Description/).inputValue()).toBe('Half used, sealed nozzle.');
    // and the form's state holds them: sent without a photo, only the photo is asked for
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await see(page, 'Please upload at least one image of the product');
    expect(await page.getByText('Please fill in all required fields').count()).toBe(0);
    await context.close();
  }, 90_000);

  test("a search typed early in the customer's list and the admin's table is kept and applied", async () => {
    const customer = await signedInPerson(app.browser, app.server, 'asha.rao@example.com');
    const list = await openWithScriptsHeld(customer.context, '/exchange');
    await list.page.getByRole('searchbox', { name: 'Search by product name, brand, or description' }).fill('toner');
    await list.release();
    const search = list.page.getByRole('searchbox', { name: 'Search by product name, brand, or description' });
    expect(await search.inputValue()).toBe('toner');
    await search.press('Enter');
    await list.page.waitForURL(/\/exchange\?q=toner/);
    expect(await search.inputValue()).toBe('toner');
    await customer.context.close();

    const admin = await signedInPerson(app.browser, app.server, 'admin@swappoints.demo');
    const table = await openWithScriptsHeld(admin.context, '/admin');
    const box = table.page.getByRole('search').getByRole('searchbox');
    await box.fill('asha');
    await table.release();
    expect(await box.inputValue()).toBe('asha');
    await table.page.waitForURL(/[?&]q=asha/); // applied on its own, as typing after load would be
    await admin.context.close();
  }, 120_000);
});

// The stylesheet inlined into each page.
const built = (href: string) => readFileSync(join(ROOT, process.env.SWAPPOINTS_DIST_DIR ?? 'dist', 'public', href), 'utf8');

describe('the stylesheet does not hold up the first render', () => {
  test('each page carries the built stylesheet inline, and its link no longer blocks rendering', async () => {
    for (const path of ['/email-signin', '/']) {
      const html = await (await fetch(`${app.server.url}${path}`)).text();
      const head = html.slice(0, html.indexOf('</head>'));
      const inlined = [...head.matchAll(/<style data-inlined="(\/assets\/[\w.-]+\.css)">([\s\S]*?)<\/style>/g)];
      expect(inlined.length).toBe(1);
      const [, href, css] = inlined[0]!;
      expect(css).toBe(built(href!));
      const links = [...head.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
      expect(links).toHaveLength(1);
      expect(links[0]).toContain(`href="${href}"`);
      expect(links[0]).toContain('media="print"');
      expect(links[0]).toContain('data-precedence=');
      // the rest of the page is what Waku rendered
      expect(html.slice(html.indexOf('</head>'))).toContain('</html>');
    }
  });

  test("a browser that was sent it inline keeps the plain link on later pages rendered for it (its cookie names the build's stylesheet); another build's cookie gets it inline again", async () => {
    const first = await fetch(`${app.server.url}/email-signin?from=test`);
    expect(await first.text()).toContain('<style data-inlined=');
    const [cookie = '', ...attributes] = first.headers.getSetCookie().find((c) => c.startsWith('sp_css='))!.split('; ');
    expect(attributes).toEqual(['Path=/', 'Max-Age=2592000', 'HttpOnly', 'SameSite=Lax']);
    for (const path of ['/email-signin?from=test', '/terms?from=test', '/no/such/page?from=test']) {
      const later = await fetch(`${app.server.url}${path}`, { headers: { cookie: `swappoints_lang=en; ${cookie}` } });
      const html = await later.text();
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head).not.toContain('<style');
      const links = [...head.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0]);
      expect(links).toHaveLength(1);
      expect(links[0]).not.toContain('media=');
      expect(later.headers.getSetCookie().some((c) => c.startsWith('sp_css='))).toBe(false);
    }
    const otherBuild = await fetch(`${app.server.url}/email-signin?from=test`, { headers: { cookie: 'sp_css=another-build' } });
    expect(await otherBuild.text()).toContain('<style data-inlined=');
    expect(otherBuild.headers.getSetCookie()).toContain([cookie, ...attributes].join('; '));
    // the pages kept in memory for every signed-out visitor (static-pages.ts) stay inlined: they are where a visit starts
    const stored = await fetch(`${app.server.url}/terms`, { headers: { cookie } });
    expect(await stored.text()).toContain('<style data-inlined=');
  });

  test('the page is styled before and after React takes over, and navigations add no second stylesheet', async () => {
    const { context, page } = await newPerson(app.browser, app.server);
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    const stylesheets = () => page.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"], style[data-inlined]')].map((el) => el.tagName));
    const styled = async () => {
      // Tailwind's classes apply: the header is sticky, the main column centred with its max width
      expect(await page.locator('header').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      expect(await page.locator('main').evaluate((el) => getComputedStyle(el).maxWidth)).toBe('1152px');
    };
    await page.goto('/email-signin');
    await styled();
    expect(await stylesheets()).toEqual(['STYLE', 'LINK']);
    // signing in opens the mailed link (a page load: the stylesheet is in the cache now, so it is
    // linked, not inlined) and goes on to /dashboard; then a link to /exchange/new, all in the page
    await signInThroughPages(page, app.server, 'asha.rao@example.com');
    await page.waitForURL(/\/dashboard$/);
    await styled();
    expect(await stylesheets()).toEqual(['LINK']);
    await page.getByRole('link', { name: 'New Exchange' }).first().click();
    await page.waitForURL(/\/exchange\/new$/);
    await see(page, 'New Exchange Request');
    await styled();
    expect(await stylesheets()).toEqual(['LINK']);
    // loaded again, still styled, from the linked file alone
    await page.reload();
    await hydrated(page);
    await styled();
    expect(await stylesheets()).toEqual(['LINK']);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});

// Client fallbacks only: answers to the sign-in link that our
// server never gives (it always sends JSON with a message), but a broken proxy or captive portal in
// between could. The page must still say something true. The answers are stood in with page.route;
// the server's own failures are in sign-in-errors.test.ts.
/** Opens a sign-in link in a browser that asked for it, with the answer to verify-email stood in by `answer`. */
async function openLinkAnswered(answer: { status: number; contentType: string; body: string }): Promise<Page> {
  const { page } = await newPerson(app.browser, app.server);
  await page.goto('/email-signin');
  await page.evaluate(() => localStorage.setItem('emailForSignIn', 'ops@myshop.example'));
  await page.route('**/api/auth/verify-email', (route) => route.fulfill(answer));
  await page.goto('/verify-email?token=whatever');
  return page;
}

describe('sign-in link answers only a proxy could give (client fallbacks)', () => {
  test("an HTML page instead of JSON: 'Invalid response from server'", async () => {
    const page = await openLinkAnswered({ status: 200, contentType: 'text/html', body: '<html>proxy error</html>' });
    await see(page, 'Invalid response from server');
    await page.context().close();
  });

  test("a success without the user: 'Invalid response from server'", async () => {
    const page = await openLinkAnswered({ status: 200, contentType: 'application/json', body: '{"success":true}' });
    await see(page, 'Invalid response from server');
    await page.context().close();
  });

  test("a refusal without a message: 'Failed to verify email'", async () => {
    const page = await openLinkAnswered({ status: 400, contentType: 'application/json', body: '{"success":false}' });
    await see(page, 'Failed to verify email');
    await page.context().close();
  });
});

// A photo straight from a phone: phones take 12-megapixel photos of
// 5–9 MB; the server takes 5 MB at most, so the page scales them down first.
const PHOTO_EMAIL = 'meera.iyer@example.com';
const MB5 = 5_242_880;
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

    const { page, context } = await signedInPerson(app.browser, app.server, PHOTO_EMAIL, PHONE);
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
    const token = await app.server.apiSignIn(PHOTO_EMAIL);
    const request = await app.server.api<{ images: { url: string }[] }>('GET', `/api/exchange/${id}`, token);
    expect(request.status).toBe(200);
    expect(request.body.images).toHaveLength(1);
    const stored = Buffer.from(await (await fetch(new URL(request.body.images[0]!.url, app.server.url))).arrayBuffer());
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
