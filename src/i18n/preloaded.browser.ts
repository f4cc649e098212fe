import type { Language } from '#api/modules/users/rules.ts';
import type { Catalog } from './t.ts';

/** In the browser no catalog besides English is there from the start: a page in Hindi loads its texts (t.ts). */
export const PRELOADED: Partial<Record<Language, Catalog>> = {};
