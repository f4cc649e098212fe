import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '#tests/helpers/cli.ts';
import { PLAYWRIGHT_DISABLED_FEATURES } from '#tests/helpers/browser.ts';

/** The `disabledFeatures` array of the installed playwright-core, read from its code (bundled or not). */
function playwrightDisabledFeatures(): string[] {
  const lib = join(ROOT, 'node_modules/playwright-core/lib');
  const files = readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  for (const file of files) {
    const source = readFileSync(join(lib, file), 'utf8');
    const list = /disabledFeatures = \[([^\]]*)\]/.exec(source)?.[1];
    if (list) return [...list.matchAll(/^\s*"([^"]+)"/gm)].map((m) => m[1]!);
  }
  throw new Error(`no disabledFeatures list in ${lib}`);
}

test("the browser tests' --disable-features repeats every feature playwright-core disables (Chromium reads only the last such flag)", () => {
  const playwrights = playwrightDisabledFeatures();
  expect(playwrights.length).toBeGreaterThan(5);
  expect(PLAYWRIGHT_DISABLED_FEATURES.toSorted()).toEqual(playwrights.toSorted());
});
