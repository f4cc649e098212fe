import { afterAll, beforeAll, expect } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ROOT } from './cli.ts';
import { closeEveryContext, keepWhenClosed, takeKeptPerson } from './kept-people.ts';
import { startServer, type RunningServer, type ServerOptions } from './server.ts';

export const SCREENSHOTS = join(ROOT, 'tests/e2e/screenshots');
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };
/** The two widths the browser tests check a screen at, as `describe.each(SCREENS)('… at %s px', (width, viewport) => …)`. */
export const SCREENS = [
  ['1280', DESKTOP],
  ['390', PHONE],
] as const;

/**
 * V8's baseline compiler only, for the tests' browser: their pages live seconds, too short for
 * Maglev's or TurboFan's compilations to pay back. Measured on this machine (2026-11-29), Chromium's
 * CPU on the two slowest browser files 6 % less, on customer-pages with admin-screens 9 %. The
 * benchmarks measure pages as a visitor's browser runs them, without it.
 */
const BASELINE_JIT_ONLY = '--js-flags=--max-opt=1';

/**
 * The features playwright-core (1.65.1, as bun.lock pins it) turns off in its own `--disable-features`
 * (its chromiumSwitches.ts). Chromium reads only the last `--disable-features` it is given, so ours
 * repeats them; tests/unit/chromium-features.test.ts fails when an upgrade changes Playwright's list.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's suggestion popups, which headless Chromium loads as two web pages
 * (chrome://omnibox-popup.top-chrome) in a renderer of their own for every window, that is for
 * every browser context, though no test ever shows an address bar. Measured on this machine
 * (2026-11-29, customer-pages with admin-screens, alternating): Chromium 20.1 and 20.2 CPU-s
 * without them, 22.0 and 22.1 with.
 */
const UNSEEN_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** Debian's Chromium, headless, with the flags this machine needs (no network beyond loopback). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNSEEN_BROWSER_UI].join(',')}`,
      ...extraArgs,
    ],
  });
}

/**
 * One Chromium per test process, shared by the files it runs one after another (`bun test
 * --no-isolate` keeps this module from one file to the next): a launch costs about a CPU-second.
 * When the last file using it lets it go (`releaseBrowser`), every context is closed and the
 * browser waits for the next file; if none takes it within IDLE_CLOSE_MS (the last file, or a run
 * that loads this module again for each file) it is closed.
 */
type SharedBrowser = { browser: Promise<Browser>; users: number; idle?: Timer };
let shared: SharedBrowser | undefined;
const IDLE_CLOSE_MS = 3_000;

function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const mine: SharedBrowser = { browser: launchBrowser([BASELINE_JIT_ONLY]), users: 0 };
    shared = mine;
    const forget = () => shared === mine && (shared = undefined);
    void mine.browser.then((browser) => browser.on('disconnected', forget), forget);
  }
  clearTimeout(shared.idle);
  shared.users += 1;
  return shared.browser;
}

/** Lets a file's browser go: the last user closes every context in it, and it idles (or, not the shared one, closes). */
async function releaseBrowser(browser: Browser): Promise<void> {
  const held = shared;
  const isShared = held !== undefined && (await held.browser.catch(() => undefined)) === browser;
  if (!isShared) return void (await browser.close());
  held.users -= 1;
  if (held.users > 0 || !browser.isConnected()) return;
  await closeEveryContext(browser);
  held.idle = setTimeout(() => {
    if (shared === held) shared = undefined;
    void browser.close();
  }, IDLE_CLOSE_MS);
  held.idle.unref();
}

/**
 * The app server (with `env`) and the browser, started side by side for a test file. The server runs
 * in this process unless `options.inProcess` is false (server.ts): the browser tests' subject is the
 * pages, and what a server process does on its own is tested with servers started as processes.
 */
export async function startServerAndBrowser(env?: Record<string, string | undefined>, options?: ServerOptions): Promise<{ server: RunningServer; browser: Browser }> {
  const browser = sharedBrowser();
  try {
    const [server, launched] = await Promise.all([startServer(env, { inProcess: true, ...options }), browser]);
    return { server, browser: launched };
  } catch (error) {
    void browser.then(releaseBrowser, () => undefined);
    throw error;
  }
}

/** Stops what startServerAndBrowser started (the browser is handed on: releaseBrowser); either is missing when the set-up failed part-way. */
export async function stopServerAndBrowser({ server, browser }: { server?: RunningServer; browser?: Browser }): Promise<void> {
  if (browser) await releaseBrowser(browser);
  await server?.stop();
}

type ServerEnv = Record<string, string | undefined>;

/** The server and browser of a test file, once its `beforeAll` has started them. */
export interface ServerAndBrowser {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * Starts the app server (with `env`) and a browser before the file's tests and stops both after
 * them: `const app = useServerAndBrowser();` at the top of a file, then `app.server`, `app.browser`
 * in its hooks and tests (a `beforeAll` registered after this one runs after the start). `env` may
 * be a function, for settings known only once something else has started (a fake shop's URL).
 */
export function useServerAndBrowser(env?: ServerEnv | (() => ServerEnv | Promise<ServerEnv>), options?: ServerOptions): ServerAndBrowser {
  let started: { server?: RunningServer; browser?: Browser } = {};
  beforeAll(async () => {
    started = await startServerAndBrowser(typeof env === 'function' ? await env() : env, options);
  }, 120_000);
  afterAll(() => stopServerAndBrowser(started), 30_000);
  const running = (what: 'server' | 'browser') => {
    const value = started[what];
    if (!value) throw new Error(`the ${what} is not running: use it inside a test or a hook (useServerAndBrowser starts it in beforeAll)`);
    return value;
  };
  return {
    get server() {
      return running('server') as RunningServer;
    },
    get browser() {
      return running('browser') as Browser;
    },
  };
}

/**
 * A person in a browser of their own: no cookies, no storage, one tab (a tab a closed person left,
 * emptied: kept-people.ts). Their `page.goto` also waits until React has taken over the
 * page (<html data-hydrated>), as a person waits for a page to be ready: a click before that would
 * be lost on a loaded machine. So does `page.waitForURL`, for the pages a plain link loads anew (the
 * admin's navigation): at once when the navigation happened inside the page, which stays hydrated.
 */
export async function newPerson(browser: Browser, server: RunningServer, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const kept = await takeKeptPerson(browser, server.url, viewport);
  if (kept) {
    consoleErrorsOf.get(kept.page)?.splice(0); // the previous person's, not this one's
    return kept;
  }
  const context = await browser.newContext({ baseURL: server.url, viewport, locale: 'en-IN' });
  const page = await context.newPage();
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    const isPage = response?.headers()['content-type']?.includes('text/html') ?? false;
    if (isPage) await hydrated(page);
    return response;
  };
  const consoleErrors = lastConsoleErrors(page);
  const waitForURL = page.waitForURL.bind(page);
  page.waitForURL = async (url, options) => {
    await waitForURL(url, options).catch(async (error: Error) => {
      throw await withWhatThePageSaid(page, error, consoleErrors);
    });
    // a document without scripts (a plain error page) has nothing to hydrate
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true' || !document.querySelector('script[type="module"]'), undefined, { timeout: 30_000 });
  };
  keepWhenClosed(browser, server.url, { context, page });
  return { context, page };
}

/** Each tab's console errors as `lastConsoleErrors` collects them (a kept tab's are emptied for its next person). */
const consoleErrorsOf = new WeakMap<Page, string[]>();

/** The page's last few console errors (a failed request logs one: src/lib/api-client.ts), for a failure's message. */
function lastConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  consoleErrorsOf.set(page, errors);
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    errors.push(message.text());
    if (errors.length > 5) errors.shift();
  });
  return errors;
}

/** A wait for the next address that timed out says where the page still is, what its alerts say and what it logged. */
async function withWhatThePageSaid(page: Page, error: Error, consoleErrors: string[]): Promise<Error> {
  const alerts = await page.locator('[role="alert"]').allInnerTexts().catch(() => []);
  error.message += `\nthe page is still at ${page.url()}; its alerts: ${JSON.stringify(alerts)}; its last console errors: ${JSON.stringify(consoleErrors)}`;
  return error;
}

/** Waits until React has taken over the page: typing into a field before that fills the DOM, not the form's state. */
export function hydrated(page: Page) {
  return page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 30_000 });
}

/**
 * Marks the page's document once React has taken it over, so that `sameDocument` can tell a link
 * followed in the page (the mark stays) from a new page load (a new document has none).
 */
export async function markDocument(page: Page): Promise<void> {
  await hydrated(page);
  await page.evaluate(() => void ((window as { __swappointsMark?: boolean }).__swappointsMark = true));
}

/** Whether the page still shows the document `markDocument` marked. */
export const sameDocument = (page: Page) => page.evaluate(() => (window as { __swappointsMark?: boolean }).__swappointsMark === true);

/** Signs in as a person would: asks for a link on the page, reads it from the outbox, opens it. */
export async function signInThroughPages(page: Page, server: RunningServer, email: string, startAt = '/email-signin'): Promise<void> {
  await page.goto(startAt);
  await hydrated(page); // (a page from `newPerson` has waited already; the benchmarks' pages have not)
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText(`Account found for ${email.toLowerCase()}. We've emailed you a sign-in link.`).waitFor();
  const link = await server.signInLink(email);
  await page.goto(link);
  // The welcome line shows for 1.5 s before the redirect (journeys-sign-in.test.ts reads it); on a
  // loaded machine the page may already have moved on when it is looked for, which is signed in too.
  const welcome = page.getByText(`Welcome back! Account found for ${email.toLowerCase()}. Redirecting to dashboard...`);
  await Promise.any([welcome.waitFor(), page.waitForURL(/\/(dashboard|admin)$/)]).catch(async (error) => {
    const body = await page.locator('body').innerText().catch(() => '(no body)');
    throw new Error(`signing in as ${email} did not finish on ${page.url()}. The page reads:\n${body.slice(0, 2000)}`, { cause: error });
  });
}

/**
 * A kept person's context keeps its idle keep-alive connections, which the server closes after
 * Bun's idle timeout; a call sent on one as it closes fails with ECONNRESET before the server has
 * read it. A browser sends such a request again on a new connection; Playwright's request client
 * (`context.request`, `page.request`) does not, so this does, once.
 */
export async function retriedOnReset<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!String((error as Error).message).includes('ECONNRESET')) throw error;
    return call();
  }
}

/**
 * A person in a browser of their own, signed in and landed on /dashboard (an admin on /admin), for
 * tests whose subject comes after signing in. The browser makes the two calls the sign-in pages make
 * (`POST /api/auth/login`, then `POST /api/auth/verify-email` with the mailed link's token), so the
 * server sets its session cookie in this browser's own cookie jar; only the pages around them are
 * skipped (about 3 s a sign-in, 1.5 s of it the welcome's redirect delay). Signing in through the
 * pages is the subject of sign-in.test.ts, journeys-sign-in.test.ts and the journeys that start
 * with it: they call `signInThroughPages`. With `path`, the browser opens that page straight after
 * signing in instead of the landing page: one page load less for a test that starts elsewhere.
 */
export async function signedInPerson(browser: Browser, server: RunningServer, email: string, viewport = DESKTOP, path?: string): Promise<{ context: BrowserContext; page: Page }> {
  const person = await newPerson(browser, server, viewport);
  const api = person.context.request;
  const headers = { 'accept-language': 'en-IN' }; // newPerson's locale, as the pages would send it
  const login = await retriedOnReset(() => api.post('/api/auth/login', { data: { email }, headers }));
  if (login.status() !== 202) throw new Error(`signing in as ${email}: login answered ${login.status()} ${await login.text()}`);
  const token = new URL(await server.signInLink(email)).searchParams.get('token');
  const verify = await retriedOnReset(() => api.post('/api/auth/verify-email', { data: { email, token }, headers }));
  const body = (await verify.json()) as { next?: string };
  if (verify.status() !== 200 || !body.next) throw new Error(`signing in as ${email}: verify answered ${verify.status()} ${JSON.stringify(body)}`);
  if (path === undefined) {
    await person.page.goto(body.next);
    await person.page.waitForURL(/\/(dashboard|admin)$/);
  } else {
    await person.page.goto(path);
    if (new URL(person.page.url()).pathname === '/email-signin') throw new Error(`signing in as ${email}: ${path} sent the browser to /email-signin`);
  }
  return person;
}

/**
 * Waits until `text` (by default the whole text of an element) is visible on the page or inside
 * `where`. When it is not, the error says what the page reads instead (and see-failure.png shows it).
 */
export async function see(where: Page | Locator, text: string, options: { exact?: boolean } = {}): Promise<void> {
  try {
    await where.getByText(text, { exact: options.exact ?? true }).first().waitFor({ state: 'visible', timeout: 15_000 });
  } catch (error) {
    const page = 'page' in where ? where.page() : where;
    await savePng(page, 'see-failure').catch(() => undefined); // written on every run: it explains the failure
    const body = await page.locator('body').innerText().catch(() => '(no body)');
    throw new Error(`'${text}' is not on ${page.url()} (screenshot see-failure.png). The page reads:\n${body.slice(0, 3000)}`, { cause: error });
  }
}

/** The screen as it is once its animations have finished (saved as a PNG with SCREENSHOTS=1), then axe-core: no serious or critical violation. */
export async function looksRightAndAccessible(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  const violations = await seriousAccessibilityViolations(page);
  expect({ screen: name, violations }).toEqual({ screen: name, violations: [] });
}

/** PNGs of the checked screens are for looking at locally; nothing compares them, so a plain run skips the work. */
const WRITE_SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** Waits until opening dialogs and drawers have finished sliding in; then, with SCREENSHOTS=1, saves `<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  if (WRITE_SCREENSHOTS) await savePng(page, name);
}

/** The page as it is now, at once, as `<name>.png` with SCREENSHOTS=1 (for screens whose animation never ends). */
export async function screenshotNow(page: Page, name: string): Promise<void> {
  if (WRITE_SCREENSHOTS) await savePng(page, name);
}

function savePng(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core's 500 KB in the page as a script with a name, which V8 compiles once per renderer
 * process and takes from its cache for every later document (`page.evaluate` compiles it anew
 * each time): 0.12–0.16 Chromium CPU-s an injection against 0.2–0.34.
 */
async function injectAxe(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Runtime.enable');
    const { scriptId, exceptionDetails } = await cdp.send('Runtime.compileScript', { expression: AXE, sourceURL: 'axe.min.js', persistScript: true });
    if (!scriptId) throw new Error(`axe-core did not compile: ${exceptionDetails?.text}`);
    const run = await cdp.send('Runtime.runScript', { scriptId });
    if (run.exceptionDetails) throw new Error(`axe-core did not run: ${run.exceptionDetails.text}`);
  } finally {
    await cdp.detach();
  }
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // run through the DevTools protocol: an injected <script> would be refused by the page's nonce-only policy;
  // once per document (a client-side navigation keeps it)
  if (!(await page.evaluate(() => 'axe' in window))) await injectAxe(page);
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  })) as { violations: AxeViolation[] };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
}
