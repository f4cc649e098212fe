import { expect } from 'bun:test';
import type { Page } from 'playwright-core';

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

/** The title of the stepper's current step (aria-current="step"), without its 'Waiting for…' tag; '' when every step is done. */
export async function currentStep(page: Page): Promise<string> {
  const stepper = page.getByTestId('exchange-stepper');
  await stepper.waitFor();
  const step = stepper.locator('[aria-current="step"] [data-slot="stepper-title"]');
  if ((await step.count()) === 0) return '';
  const text = await step.evaluate((el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(''));
  return text.trim();
}

/** The 'Waiting for…' tag of the stepper's current step, or null. */
export async function currentStepNote(page: Page): Promise<string | null> {
  const note = page.getByTestId('exchange-stepper').locator('[aria-current="step"] [data-slot="stepper-note"]');
  return (await note.count()) === 0 ? null : await note.textContent();
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
