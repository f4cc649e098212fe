import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * Browser tabs kept open between people. In Chromium a new context with its first page costs about
 * 1.5 CPU-seconds (a renderer process started, the app's scripts fetched, compiled and optimised
 * again) against 0.35 for the same tab handed on: its cookies cleared, its storage emptied and its
 * document replaced by about:blank. Closing a person's context (`context.close()`, as every test
 * does) hands the tab to the next person on the same browser and server instead, at their screen size;
 * browser.close() at the end of a file closes them all.
 *
 * What the next person could otherwise inherit is removed or refused: other tabs are closed,
 * the test's listeners and routes dropped, and a tab that was given an init script or an exposed function,
 * or that cannot be emptied (it is on another origin, or closed), is closed for real. A person who
 * needs a browser nobody has used makes their own context (`browser.newContext`).
 */
type Person = { context: BrowserContext; page: Page };

const kept = new WeakMap<Browser, Map<string, Person[]>>();

function shelf(browser: Browser, key: string): Person[] {
  let byKey = kept.get(browser);
  if (!byKey) kept.set(browser, (byKey = new Map()));
  let people = byKey.get(key);
  if (!people) byKey.set(key, (people = []));
  return people;
}

type Viewport = { width: number; height: number };
/** The screen size of each kept context's current person: the size its new tabs open at. */
const viewports = new WeakMap<BrowserContext, Viewport>();

/**
 * A kept tab for `key` (the server's URL), set to `viewport`, or undefined when none is free. Its
 * context's further tabs open at `viewport` too (a context's own size is fixed when it is made).
 */
export async function takeKeptPerson(browser: Browser, key: string, viewport: Viewport): Promise<Person | undefined> {
  const person = shelf(browser, key).pop();
  if (!person) return undefined;
  viewports.set(person.context, viewport);
  const size = person.page.viewportSize();
  if (size?.width !== viewport.width || size.height !== viewport.height) await person.page.setViewportSize(viewport);
  await person.page.bringToFront(); // focused, as a new tab is: autofocus and focus() need a focused tab
  return person;
}

/** Makes `context.close()` hand `page` on to the next person on `key` instead of closing it. */
export function keepWhenClosed(browser: Browser, key: string, { context, page }: Person): void {
  let reusable = true;
  for (const method of ['addInitScript', 'exposeFunction', 'exposeBinding'] as const) {
    const original = page[method].bind(page) as (...args: unknown[]) => Promise<unknown>;
    (page as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      reusable = false; // an init script or binding cannot be taken back
      return original(...args);
    };
  }
  // a test's own listeners are taken off again (removeAllListeners would take Playwright's too)
  const listeners: [string, (...args: unknown[]) => void][] = [];
  for (const method of ['on', 'once', 'addListener'] as const) {
    const original = page[method].bind(page) as (event: string, listener: (...args: unknown[]) => void) => Page;
    (page as unknown as Record<string, unknown>)[method] = (event: string, listener: (...args: unknown[]) => void) => {
      listeners.push([event, listener]);
      return original(event, listener);
    };
  }
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const tab = await newPage();
    const viewport = viewports.get(context);
    if (viewport) await tab.setViewportSize(viewport);
    return tab;
  };
  const close = context.close.bind(context);
  realClose.set(context, close);
  context.close = async (options) => {
    for (const [event, listener] of listeners.splice(0)) page.off(event as 'close', listener);
    if (reusable && (await emptied({ context, page }, key))) shelf(browser, key).push({ context, page });
    else await close(options);
  };
}

/** Each handed-on context's own close, which closes it for real. */
const realClose = new WeakMap<BrowserContext, (options?: { reason?: string }) => Promise<void>>();

/** Closes every context of `browser` for real, kept tabs included: the end of a test file. */
export async function closeEveryContext(browser: Browser): Promise<void> {
  kept.delete(browser);
  await Promise.all(browser.contexts().map((context) => (realClose.get(context) ?? context.close.bind(context))()));
}

/** Empties a person's tab for the next person of `appUrl`; false when it cannot be (the caller closes it). */
async function emptied({ context, page }: Person, appUrl: string): Promise<boolean> {
  try {
    // closed, or elsewhere (another site, an error page, about:blank): the app's storage cannot be reached to be emptied
    if (page.isClosed() || new URL(page.url()).origin !== new URL(appUrl).origin) return false;
    for (const other of context.pages()) if (other !== page) await other.close();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    // navigated from the page itself, about:blank stays in the same renderer process (a navigation
    // started by the browser would start another); the storage is emptied while the origin is the app's
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
      setTimeout(() => location.replace('about:blank'));
    });
    await page.waitForURL('about:blank', { timeout: 10_000 });
    await context.clearCookies();
    return true;
  } catch {
    return false;
  }
}
