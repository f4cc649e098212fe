import { describe, expect, test } from 'bun:test';
import { notShippedFeedback } from '#api/modules/credit/rules.ts';
import { MAIL_TEXTS, type MailTexts } from '#api/modules/mail/texts.ts';

/**
 * Every text a customer's mail is made of, walked from `MailTexts` itself (so a text added later is
 * walked too): in Hindi nothing may be left in English but what is passed in (a product, an amount,
 * a date, a carrier, a URL) and the words on the allow-list.
 */

/** Latin words a Hindi mail may hold: the shop's name and the carriers' word for a tracking number. */
const ALLOWED_LATIN = new Set(['SwapPoints', 'AWB']);

/** What a text is called with: each argument a marker, removed before the text is read. */
const mark = (i: number) => `⟦${i}⟧`;
const MARKS = /⟦\d+⟧/g;

/**
 * Arguments that are not plain text, each set called in turn: credited.bonus takes the campaign, whose
 * `bonusName` is valuation's English name ('Diwali bonus'): a Hindi text that used it would be caught.
 */
const SPECIAL_ARGS: Record<string, unknown[][]> = {
  'credited.bonus': [
    [mark(0), mark(1), { name: mark(2), bonusName: 'Diwali bonus' }, mark(3)],
    [mark(0), mark(1), { name: null, bonusName: 'Diwali bonus' }, mark(3)],
  ],
};

/** Texts whose Hindi takes other arguments than the English, and why. */
const OTHER_ARGUMENTS: Record<string, string> = {
  'credited.bonus': "Hindi names the admin's campaign (or none) instead of valuation's English bonus name",
};

type Rendered = { path: string; text: string };

/** Every string of a `MailTexts`, each function called with markers (or its special arguments). */
function render(texts: MailTexts): Rendered[] {
  const out: Rendered[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === 'string') out.push({ path, text: node });
    else if (typeof node === 'function') {
      const calls = SPECIAL_ARGS[path] ?? [Array.from({ length: node.length }, (_, i) => mark(i))];
      calls.forEach((args, i) => out.push({ path: calls.length > 1 ? `${path}#${i}` : path, text: String(node(...args)) }));
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
    } else throw new Error(`${path}: a mail text must be a string or a function, not ${typeof node}`);
  };
  walk(texts, '');
  return out;
}

/** The Latin words a text holds besides its arguments, URLs and the allow-list. */
function englishWords(text: string): string[] {
  const own = text.replace(MARKS, ' ').replace(/https?:\/\/\S+/g, ' ');
  return (own.match(/[A-Za-z]+/g) ?? []).filter((word) => !ALLOWED_LATIN.has(word));
}

/** The texts of `texts` with English left in them, as `path: words`. */
const leftInEnglish = (texts: MailTexts) =>
  render(texts)
    .map(({ path, text }) => ({ path, words: englishWords(text) }))
    .filter((r) => r.words.length > 0)
    .map((r) => `${r.path}: ${r.words.join(' ')}`);

describe('the mail texts (mail/texts.ts)', () => {
  test('every Hindi mail text is Hindi: no English word outside its arguments, URLs, SwapPoints and AWB', () => {
    expect(leftInEnglish(MAIL_TEXTS.hi)).toEqual([]);
  });

  test('the check catches a Hindi text left in English: English texts put in the Hindi catalog are each reported', () => {
    const en = MAIL_TEXTS.en;
    const halfDone: MailTexts = { ...MAIL_TEXTS.hi, labelReady: en.labelReady, offer: { ...MAIL_TEXTS.hi.offer, noAnswer: en.offer.noAnswer } };
    expect(leftInEnglish(halfDone).map((line) => line.split(':')[0])).toEqual(['offer.noAnswer', 'labelReady.subject', 'labelReady.body', 'labelReady.print', 'labelReady.action']);
    // and every English text but the signature would be caught
    const caught = new Set(leftInEnglish(en).map((line) => line.split(':')[0]!.replace(/#\d+$/, '')));
    expect(render(en).map((r) => r.path.replace(/#\d+$/, '')).filter((path) => !caught.has(path))).toEqual(['signature']);
  });

  test('each Hindi text uses every argument its English text uses (an amount, a date, a tracking number is never dropped)', () => {
    const marksOf = (text: string) => [...new Set(text.match(MARKS) ?? [])].sort();
    const hi = new Map(render(MAIL_TEXTS.hi).map((r) => [r.path, r.text]));
    const en = render(MAIL_TEXTS.en);
    expect(en.map((r) => r.path)).toEqual([...hi.keys()]);
    for (const { path, text } of en) {
      if (OTHER_ARGUMENTS[path.replace(/#\d+$/, '')]) continue;
      expect({ path, uses: marksOf(hi.get(path)!) }).toEqual({ path, uses: marksOf(text) });
    }
  });

  test('the English reason of a request never shipped is the one stored on the request (credit/rules.ts)', () => {
    for (const days of [1, 21, 30]) expect(MAIL_TEXTS.en.declined.notShipped(days)).toBe(notShippedFeedback(days));
  });
});
