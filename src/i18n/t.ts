/**
 * The customer pages' texts in English and Hindi: plain typed catalogs (en.ts is the source of
 * truth and holds the spec's English word for word; hi.ts must have every key with the same
 * {params}, which tests/unit/i18n-catalogs.test.ts checks). Plain objects instead of a library:
 * server components and client islands read the same two files with no provider to set up per
 * request, and two languages need no negotiation machinery.
 *
 * On the server every catalog is there from the start (preloaded.ts). In the browser only English
 * is in the shared scripts: the Hindi texts, 9 KB of brotli that no English page needs (every admin
 * page is one), are a chunk of their own that a page in Hindi loads (`loadCatalog`) before the
 * LanguageProvider lets React render it.
 */
import { createElement, Fragment, type ReactNode } from 'react';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { PRELOADED } from '#i18n-preloaded';
import { en } from './en.ts';

export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;
export type Params = Record<string, string | number>;

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Catalog>> = {
  hi: () => import('./hi.ts').then((module) => module.hi),
};
const catalogs: Partial<Record<Language, Catalog>> = { ...PRELOADED, en };
const loading = new Map<Language, Promise<void>>();

/** Whether `lang`'s texts are here (English always is). */
export const catalogReady = (lang: Language): boolean => catalogs[lang] !== undefined;

/** Loads `lang`'s texts once; a failed load (the network) is tried again at the next call. */
export function loadCatalog(lang: Language): Promise<void> {
  if (lang === 'en' || catalogs[lang]) return Promise.resolve();
  let load = loading.get(lang);
  if (!load) {
    load = LOADERS[lang]().then(
      (catalog) => void (catalogs[lang] = catalog),
      (error: unknown) => {
        loading.delete(lang);
        throw error;
      },
    );
    loading.set(lang, load);
  }
  return load;
}

/** The text of `key` in `lang`, with each {name} replaced by params.name (English while `lang`'s texts are not loaded). */
export function t(lang: Language, key: MessageKey, params?: Params): string {
  const text = catalogs[lang]?.[key] ?? en[key];
  return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
}

type PluralBase = MessageKey extends infer K ? (K extends `${infer B}.other` ? B : never) : never;

/** Each language's plural rules, made once: making them was a few percent of a list page's render. */
const pluralRules = new Map<Language, Intl.PluralRules>();

/** A text that depends on a count: `${base}.one` or `${base}.other` as the language's plural rules pick, with {count}. */
export function tn(lang: Language, base: PluralBase, count: number, params?: Params): string {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(LANGUAGE_LOCALES[lang])));
  const rule = rules.select(count);
  const key = (rule === 'one' && `${base}.one` in en ? `${base}.one` : `${base}.other`) as MessageKey;
  return t(lang, key, { count, ...params });
}

/** The {params} a text takes, sorted: what the catalog test compares between languages. */
export function paramsOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!))].sort();
}

export type Translate = (key: MessageKey, params?: Params) => string;
export const translator = (lang: Language): Translate => (key, params) => t(lang, key, params);

/** A text whose {params} are page elements (a link, a <time>), as the pieces JSX renders in order. */
export function textWith(text: string, nodes: Record<string, ReactNode>): ReactNode[] {
  return text.split(/(\{\w+\})/).map((part, index) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return createElement(Fragment, { key: index }, name !== undefined && name in nodes ? nodes[name] : part);
  });
}

/** Each language named in itself, as a switch or a choice of language offers it. */
export const LANGUAGE_OWN_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };
