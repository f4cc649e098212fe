/**
 * The API answers in the spec's English (its refusals, the feedback and notes it composes); a page
 * shows such a sentence in the reader's language by finding it among the English catalog's texts
 * that the API writes, reading its values back out of the {params}, and filling the same key's
 * text in the reader's language. Field labels in the values ('Phone can be at most 20
 * characters.') are translated too. A sentence it does not know (a person's own words: an admin's
 * feedback, an offer's reason) is shown as it came.
 */
import type { Language } from '#api/modules/users/rules.ts';
import { en } from './en.ts';
import { t, type MessageKey, type Params } from './t.ts';

const isKey = (key: string): key is MessageKey => key in en;
const ALL_KEYS = Object.keys(en).filter(isKey);

/** The catalog texts the API itself writes: its sentences (api.*) and the form messages it shares with the pages. */
const SENTENCE_KEYS: MessageKey[] = [
  ...ALL_KEYS.filter((key) => key.startsWith('api.')),
  'new.fillRequired',
  'new.needImage',
  'shipping.fill',
  'shipping.future',
  'field.tooLong',
  'signIn.invalidEmail',
  'verify.noEmail',
  // the credit call's refusals (§8's words, which the shop integration answers with)
  'error.notFound',
  'error.connecting',
  'error.profile',
];

/** Field labels as the API's sentences name them (the forms' labels), by their English. */
const LABEL_KEYS = new Map<string, MessageKey>(
  ALL_KEYS.filter((key) => /^(field|pickup|return|profile)\./.test(key) && !en[key].includes('{')).map((key) => [en[key], key] as const),
);

/** Params that hold field labels: one ('label') or a list joined by ', ' ('fields'). */
const LABEL_PARAMS = new Set(['label', 'fields']);

interface Matcher {
  key: MessageKey;
  pattern: RegExp;
  names: string[];
  /** the text before the first {param}: where a sentence starts inside several joined ones */
  opening: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcherOf(key: MessageKey): Matcher {
  const names: string[] = [];
  const parts = en[key].split(/(\{\w+\})/);
  const source = parts.map((part) => (/^\{\w+\}$/.test(part) ? (names.push(part.slice(1, -1)), '([\\s\\S]+?)') : escape(part))).join('');
  return { key, pattern: new RegExp(`^${source}$`), names, opening: parts[0] ?? '' };
}

const EXACT = new Map<string, MessageKey>();
const TEMPLATES: Matcher[] = [];
for (const key of SENTENCE_KEYS) {
  if (/\{\w+\}/.test(en[key])) TEMPLATES.push(matcherOf(key));
  else EXACT.set(en[key], key);
}
// the most specific first: a longer fixed part wins over a looser sentence
TEMPLATES.sort((a, b) => en[b.key].replace(/\{\w+\}/g, '').length - en[a.key].replace(/\{\w+\}/g, '').length);

function label(lang: Language, english: string): string {
  const key = LABEL_KEYS.get(english);
  return key ? t(lang, key) : english;
}

/** One sentence in `lang`, or null when it is not one the API writes. */
function one(lang: Language, text: string): string | null {
  const exact = EXACT.get(text);
  if (exact) return t(lang, exact);
  for (const matcher of TEMPLATES) {
    const found = matcher.pattern.exec(text);
    if (!found) continue;
    const params: Params = {};
    matcher.names.forEach((name, i) => {
      const value = found[i + 1] ?? '';
      params[name] = LABEL_PARAMS.has(name) ? value.split(', ').map((part) => label(lang, part)).join(', ') : value;
    });
    return t(lang, matcher.key, params);
  }
  return null;
}

/** Where one known sentence starts inside a text of several joined by spaces (the erasure's reasons). */
const OPENINGS = [...EXACT.keys(), ...TEMPLATES.map((m) => m.opening).filter((opening) => opening.length >= 8)];

function joined(lang: Language, text: string): string | null {
  const starts = [0];
  for (let i = 1; i < text.length; i++) {
    if (text[i - 1] === ' ' && OPENINGS.some((opening) => text.startsWith(opening, i))) starts.push(i);
  }
  if (starts.length < 2) return null;
  const parts = starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length).trimEnd());
  const shown = parts.map((part) => one(lang, part));
  return shown.every((part) => part !== null) ? shown.join(' ') : null;
}

/** A sentence from the API in `lang`: the catalog's text when the API wrote it, else the text as it came. */
export function serverText(lang: Language, text: string): string;
export function serverText(lang: Language, text: string | null): string | null;
export function serverText(lang: Language, text: string | null): string | null {
  if (text === null || lang === 'en') return text;
  return one(lang, text) ?? joined(lang, text) ?? text;
}
