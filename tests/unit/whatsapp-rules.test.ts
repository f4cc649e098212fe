import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { normalizePhone } from '#api/modules/users/rules.ts';
import { isStopReply, orderedParams, PARAM_MAX_LENGTH, WHATSAPP_TEMPLATES } from '#api/modules/whatsapp/rules.ts';
import { validSignature } from '#api/modules/whatsapp/webhook.ts';
import { createHmac } from 'node:crypto';

describe('phone numbers as E.164', () => {
  test('a 10-digit Indian mobile number gets +91, with or without 0 or 91 before it and spaces or dashes inside', () => {
    for (const typed of ['9876543210', '98765 43210', '098765-43210', '919876543210', '+91 98765 43210', '(987) 654-3210']) expect({ typed, e164: normalizePhone(typed) }).toEqual({ typed, e164: '+919876543210' });
  });
  test('another country needs + and its code; anything else is refused', () => {
    expect(normalizePhone('+44 7911 123456')).toBe('+447911123456');
    expect(normalizePhone('+1 (415) 555-2671')).toBe('+14155552671');
    for (const bad of ['', '12345', '5876543210', '447911123456', '+91 12345 67890', '+9198765432101', '+0123456789', 'phone', '+1234567', '98765432١٠']) expect({ bad, e164: normalizePhone(bad) }).toEqual({ bad, e164: null });
  });
});

describe('the WhatsApp templates', () => {
  test('each text, in English and in Hindi, uses exactly its parameters {{1}}…{{n}}', () => {
    for (const [key, template] of Object.entries(WHATSAPP_TEMPLATES)) {
      const expected = template.params.map((_, i) => `{{${i + 1}}}`);
      for (const language of ['en', 'hi'] as const) {
        const used = [...new Set(template.text[language].match(/\{\{\d+\}\}/g) ?? [])].sort();
        expect({ key, language, used }).toEqual({ key, language, used: [...expected].sort() });
      }
      expect(template.name).toMatch(/^[a-z0-9_]{1,512}$/);
    }
  });

  test('README lists every template with its name and both texts to register with Meta', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [key, template] of Object.entries(WHATSAPP_TEMPLATES)) {
      for (const text of [template.name, template.text.en, template.text.hi]) expect({ key, listed: readme.includes(text) }).toEqual({ key, listed: true });
    }
  });

  test('parameters come in the template order, on one line, never empty, cut at the limit', () => {
    expect(orderedParams('request_approved', { link: 'L', shipTo: 'Hub\nMG Road\t 560001', product: 'Toner' })).toEqual(['Toner', 'Hub MG Road 560001', 'L']);
    expect(orderedParams('request_declined', { product: 'Toner', reason: '   ', link: 'L' })[1]).toBe('-');
    const long = orderedParams('item_received', { product: 'x'.repeat(1000), link: 'L' })[0]!;
    expect(long).toHaveLength(PARAM_MAX_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });

  test('STOP, in any case with spaces around, is a STOP reply; a sentence holding it is not', () => {
    for (const text of ['STOP', 'stop', ' Stop \n']) expect(isStopReply(text)).toBe(true);
    for (const text of ['stop it', 'STOPP', 'please stop', '']) expect(isStopReply(text)).toBe(false);
  });

  test('the webhook signature is the hex HMAC-SHA256 of the raw bytes under the app secret, prefixed sha256=', () => {
    const body = '{"entry":[]}';
    const good = `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`;
    expect(validSignature('secret', body, good)).toBe(true);
    expect(validSignature('secret', body, good.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    for (const bad of [null, '', good.slice(7), `sha1=${good.slice(7)}`, `${good}00`, good.replace(/.$/, (c) => (c === '0' ? '1' : '0'))]) expect(validSignature('secret', body, bad)).toBe(false);
    expect(validSignature('other', body, good)).toBe(false);
    expect(validSignature('secret', `${body} `, good)).toBe(false);
  });
});
