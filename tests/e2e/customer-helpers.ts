import { expect } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { screenshot, seriousAccessibilityViolations } from '#tests/helpers/browser.ts';
import type { RunningServer } from '#tests/helpers/server.ts';

/** Waits until `text` (exact, whole text of an element) is visible on the page or inside `within`. */
export async function see(where: Page | Locator, text: string, options: { exact?: boolean } = {}): Promise<void> {
  try {
    await where.getByText(text, { exact: options.exact ?? true }).first().waitFor({ state: 'visible', timeout: 15_000 });
  } catch (error) {
    const page = 'page' in where ? where.page() : where;
    await screenshot(page, 'customer-failure').catch(() => undefined);
    const body = await page.locator('body').innerText().catch(() => '(no body)');
    throw new Error(`'${text}' is not on ${page.url()} (screenshot customer-failure.png). The page reads:\n${body.slice(0, 3000)}`, { cause: error });
  }
}

/** Screenshot of the screen as it is, then axe-core: no serious or critical violation. */
export async function looksRightAndAccessible(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  const violations = await seriousAccessibilityViolations(page);
  expect({ screen: name, violations }).toEqual({ screen: name, violations: [] });
}

/**
 * Real image bytes drawn by the browser: a PNG and a JPEG of a small coloured "product photo"
 * (canvas → toDataURL), different each call so two photos differ.
 */
export async function realImages(page: Page, label: string): Promise<{ png: Buffer; jpeg: Buffer }> {
  const [png, jpeg] = await page.evaluate((text) => {
    const draw = (hue: number, type: string) => {
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 360;
      const g = canvas.getContext('2d')!;
      const gradient = g.createLinearGradient(0, 0, 480, 360);
      gradient.addColorStop(0, `hsl(${hue} 60% 45%)`);
      gradient.addColorStop(1, `hsl(${(hue + 60) % 360} 60% 30%)`);
      g.fillStyle = gradient;
      g.fillRect(0, 0, 480, 360);
      g.fillStyle = '#f8fafc';
      g.fillRect(120, 110, 240, 140);
      g.fillStyle = '#0f172a';
      g.font = 'bold 28px sans-serif';
      g.fillText(text, 140, 190);
      return canvas.toDataURL(type).split(',')[1]!;
    };
    return [draw(170, 'image/png'), draw(20, 'image/jpeg')];
  }, label);
  return { png: Buffer.from(png, 'base64'), jpeg: Buffer.from(jpeg, 'base64') };
}

/** A 1×1 PNG, for requests made through the API. */
const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64');

/** Creates a pending request through the API as the customer (upload, then POST /api/exchange); returns its id. */
export async function createRequestThroughApi(
  server: RunningServer,
  token: string,
  fields: { productName: string; brand: string; description: string; condition: string },
): Promise<string> {
  const form = new FormData();
  form.append('file', new File([TINY_PNG], 'photo.png', { type: 'image/png' }));
  form.append('upload_preset', 'swappoints');
  form.append('cloud_name', 'swappoints');
  const upload = await fetch(`${server.url}/image/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(upload.status).toBe(200);
  const image = (await upload.json()) as { secure_url: string; public_id: string };
  const created = await server.api<{ id: string }>('POST', '/api/exchange', token, { ...fields, images: [{ url: image.secure_url, publicId: image.public_id }] });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** The title of the stepper's current step (aria-current="step"). */
export async function currentStep(page: Page): Promise<string> {
  const step = page.getByTestId('exchange-stepper').locator('[aria-current="step"] [data-slot="stepper-title"]');
  return ((await step.textContent()) ?? '').replace(/^Current step: /, '');
}

/** Polls `read` until it gives `expected` (the page may still be re-rendering), then asserts it. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!Bun.deepEquals(value, expected) && Date.now() < deadline) {
    await Bun.sleep(100);
    value = await read();
  }
  expect(value as unknown).toEqual(expected);
}
