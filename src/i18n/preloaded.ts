import type { Language } from '#api/modules/users/rules.ts';
import { hi } from './hi.ts';
import type { Catalog } from './t.ts';

/**
 * The catalogs besides English that are there from the start: on the server (and in Bun: the CLI,
 * the tests) every one, so a page renders in any language at once. The browser's build takes
 * preloaded.browser.ts instead (package.json "imports", condition "browser").
 */
export const PRELOADED: Partial<Record<Language, Catalog>> = { hi };
