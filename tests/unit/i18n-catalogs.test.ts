import { describe, expect, test } from 'bun:test';
import { errorPage } from '#api/http/error-page.ts';
import { formatMoney } from '#api/lib/money.ts';
import type { ExchangeRequestRow } from '#api/db/types.ts';
import { creditMailLines } from '#api/modules/credit/terms.ts';
import { MAIL_TEXTS } from '#api/modules/mail/texts.ts';
import { languageFromHeader, visitorLanguage } from '#api/modules/users/rules.ts';
import { en } from '#src/i18n/en.ts';
import { hi } from '#src/i18n/hi.ts';
import { paramsOf, t, tn, type MessageKey } from '#src/i18n/t.ts';
import { conditionText, formatDate, requestCountLabel, showingRange, statusBadge, statusLine, transitChipIn } from '#src/lib/requests.ts';

const DEVANAGARI = /[\u0900-\u097F]/;

describe('the catalogs', () => {
  test('every key of the English catalog is in the Hindi one, with the same {params}, and Hindi has no key of its own', () => {
    const missing = Object.keys(en).filter((key) => !(key in hi));
    const extra = Object.keys(hi).filter((key) => !(key in en));
    const otherParams = (Object.keys(en) as MessageKey[]).filter((key) => key in hi && paramsOf(en[key]).join() !== paramsOf(hi[key]).join());
    expect({ missing, extra, otherParams }).toEqual({ missing: [], extra: [], otherParams: [] });
  });

  test('every Hindi text is written in Devanagari (not an English text copied over)', () => {
    const notHindi = (Object.keys(hi) as MessageKey[]).filter((key) => !DEVANAGARI.test(hi[key]) || hi[key] === en[key]);
    expect(notHindi).toEqual([]);
  });

  test('the spec\'s English texts are the English catalog, word for word', () => {
    // quoted from the product spec (§1-§8); a change to any of these is a change of the spec's words
    const SPEC: Partial<Record<MessageKey, string>> = {
      'layout.loading': 'Loading your experience...',
      'nav.dashboard': 'Dashboard',
      'nav.myExchanges': 'My Exchanges',
      'nav.newExchange': 'New Exchange',
      'nav.adminPanel': 'Admin Panel',
      'nav.adminDashboard': 'Admin Dashboard',
      'nav.login': 'Login',
      'nav.logout': 'Logout',
      'notFound.title': 'Page Not Found',
      'signIn.sent': "Account found for {email}. We've emailed you a sign-in link.",
      'signIn.notInShopify': 'Email "{email}" is not found in our Shopify database.',
      'signIn.invalidEmail': 'Please enter a valid email address',
      'signIn.continue': 'Continue',
      'signIn.networkError': 'Network error: Please check your internet connection and try again.',
      'signIn.serverError': 'Server error: The authentication service is currently unavailable. Please try again later.',
      'signIn.failed': 'Failed to sign in. Please try again.',
      'verify.noEmail': 'No email found. Please try signing in again.',
      'verify.welcome': 'Welcome back! Account found for {email}. Redirecting to dashboard...',
      'dashboard.title': 'Your Dashboard',
      'dashboard.loadFailed': 'Failed to load data. Please try again later.',
      'dashboard.refresh': 'Refresh',
      'dashboard.recent': 'Recent Exchanges',
      'dashboard.empty': "You haven't submitted any exchange requests yet.",
      'dashboard.createFirst': 'Create Your First Exchange',
      'dashboard.viewAll': 'View All Requests',
      'dashboard.viewDetails': 'View Details',
      'dashboard.search': 'Search exchanges...',
      'dashboard.noMatch': 'No exchanges match your search.',
      'credit.cardTitle': 'Available Loyalty Points',
      'status.pending': 'Pending',
      'status.approved': 'Approved',
      'status.declined': 'Declined',
      'status.completed': 'Completed',
      'line.completed': 'Exchange process completed',
      'line.declined': 'Exchange request declined',
      'line.shipped': 'Item has been shipped to us',
      'line.received': 'Item received and under inspection',
      'line.ready': 'Ready to ship back to you',
      'line.transit': 'Transit status: {status}',
      'line.addShipping': 'Add Shipping Details!',
      'line.pending': 'Exchange pending review',
      'list.title': 'My Exchange Requests',
      'list.allStatuses': 'All Statuses',
      'list.search': 'Search by product name, brand, or description',
      'list.noneFound': 'No exchange requests found',
      'list.showing.other': 'Showing {first}-{last} of {count} requests',
      'new.productName': 'Product Name',
      'new.submit': 'Submit Request',
      'new.cancel': 'Cancel',
      'new.nextTitle': 'What happens next?',
      'new.fillRequired': 'Please fill in all required fields',
      'new.submitFailed': 'Failed to submit exchange request',
      'images.legend': 'Product Images',
      'images.hint': 'At least one image required',
    };
    const changed = Object.entries(SPEC).filter(([key, text]) => en[key as MessageKey] !== text);
    expect(changed).toEqual([]);
  });

  test('the mails: Hindi says each part in Devanagari, English keeps its words', () => {
    expect(MAIL_TEXTS.en.signIn.subject).toBe('Your SwapPoints sign-in link');
    expect(MAIL_TEXTS.en.credited.subject('₹500.00', 'Toner')).toBe('₹500.00 store credit for your Toner');
    const texts = (m: unknown): string[] =>
      typeof m === 'string' ? [m] : typeof m === 'function' ? [String(m('X', 'Y', { name: 'Z', bonusName: 'Z bonus' }, 'W'))] : Object.values(m as object).flatMap(texts);
    const notHindi = texts(MAIL_TEXTS.hi).filter((text) => text !== '— SwapPoints' && !DEVANAGARI.test(text));
    expect(notHindi).toEqual([]);
  });

  test('the credit mail\'s valuation lines in the customer\'s language (English as before)', () => {
    const row = { quote_estimate: '1500', quote_bonus: '0', quote_currency: 'INR', currency: 'INR' } as unknown as ExchangeRequestRow;
    const terms = { base: 1200, bonus: 100, total: 1300, campaign: { id: 1, name: 'Diwali', kind: 'amount' as const, value: 100 }, reason: 'Scratched casing' };
    const photos = [{ url: '/media/a.png', publicId: 'a' }];
    expect(creditMailLines(row, terms, photos, 'https://shop.in')).toEqual([
      'You were quoted ₹1,500 when you submitted it; after inspection we credited ₹1,200.',
      'Your total of ₹1,300 includes a ₹100 Diwali bonus on top of ₹1,200.',
      'Why the credit is below the quote: Scratched casing',
      'Inspection photos: https://shop.in/media/a.png',
    ]);
    expect(creditMailLines(row, terms, photos, 'https://shop.in', 'hi')).toEqual([
      'रिक्वेस्ट भेजते समय आपको ₹1,500 का अनुमान बताया गया था; जाँच के बाद हमने ₹1,200 का क्रेडिट दिया है।',
      'आपके कुल ₹1,300 में ₹1,200 के ऊपर ₹100 का Diwali बोनस शामिल है।',
      'क्रेडिट अनुमान से कम क्यों है: Scratched casing',
      'जाँच की फ़ोटो: https://shop.in/media/a.png',
    ]);
  });
});

describe('t and tn', () => {
  test('{params} are filled; a missing one stays visible', () => {
    expect(t('en', 'dashboard.signedInAs', { email: 'a@b.in' })).toBe('Signed in as a@b.in');
    expect(t('hi', 'dashboard.signedInAs', { email: 'a@b.in' })).toBe('a@b.in के रूप में साइन इन');
    expect(t('en', 'dashboard.signedInAs')).toBe('Signed in as {email}');
  });

  test('counts follow each language\'s plural rules', () => {
    expect([0, 1, 2].map((n) => tn('en', 'dashboard.requestCount', n))).toEqual(['0 Requests', '1 Request', '2 Requests']);
    expect(requestCountLabel(3, 'hi')).toBe('3 रिक्वेस्ट');
    expect(requestCountLabel(1)).toBe('1 Request');
    expect(showingRange(2, 10, 23)).toBe('Showing 11-20 of 23 requests');
    expect(showingRange(1, 10, 1)).toBe('Showing 1-1 of 1 request');
    expect(showingRange(2, 10, 23, 'hi')).toBe('23 में से 11-20 रिक्वेस्ट');
  });

  test('badges and status lines in Hindi; English unchanged without a language', () => {
    expect(statusBadge('approved', 'hi').label).toBe('स्वीकृत');
    expect(statusBadge('approved').label).toBe('Approved');
    expect(statusLine('approved', null, 'hi')).toBe('शिपिंग विवरण जोड़ें!');
    expect(statusLine('approved', 'weird')).toBe('Transit status: weird');
    expect(conditionText('like_new', 'hi', true)).toBe('लगभग नया');
    expect(conditionText('like_new')).toBe('Like New (without tags)');
    expect(conditionText('mystery', 'hi', true)).toBe('mystery');
    expect(transitChipIn({ status: 'approved', transitStatus: null }, 'hi')).toEqual({ label: 'भेजना बाकी', variant: 'warning' });
    expect(transitChipIn({ status: 'approved', transitStatus: 'lost' }, 'hi')!.label).toBe('Lost');
  });
});

describe('locale', () => {
  test('Accept-Language: the first of English and Hindi by preference; anything else is English', () => {
    expect(languageFromHeader('hi-IN,hi;q=0.9,en;q=0.8')).toBe('hi');
    expect(languageFromHeader('en-IN,en;q=0.9,hi;q=0.8')).toBe('en');
    expect(languageFromHeader('fr-FR,hi;q=0.5')).toBe('hi');
    expect(languageFromHeader('en;q=0.4,hi;q=0.6')).toBe('hi');
    expect(languageFromHeader('hi;q=0,en')).toBe('en');
    expect(languageFromHeader('ta-IN')).toBe('en');
    expect(languageFromHeader(null)).toBe('en');
    expect(languageFromHeader(';;,q=x,*')).toBe('en');
  });

  test('a visitor\'s chosen language (cookie) wins over the browser\'s; a forged cookie is ignored', () => {
    expect(visitorLanguage({ cookie: 'a=1; swappoints_lang=en', acceptLanguage: 'hi' })).toBe('en');
    expect(visitorLanguage({ cookie: 'swappoints_lang=fr', acceptLanguage: 'hi' })).toBe('hi');
    expect(visitorLanguage({ cookie: null, acceptLanguage: null })).toBe('en');
    // a broken %-encoding is no choice: the browser's language decides
    expect(visitorLanguage({ cookie: 'swappoints_lang=%E0%A4', acceptLanguage: 'hi' })).toBe('hi');
  });

  test('dates and ₹ amounts for hi-IN and en-IN', () => {
    expect(formatMoney(125000, 'INR', 'hi-IN')).toBe('₹1,25,000.00');
    expect(formatMoney(125000, 'INR', 'en-IN')).toBe('₹1,25,000.00');
    expect(formatDate('2026-11-05', 'hi-IN')).toBe('5 नव॰ 2026');
    expect(formatDate('2026-11-05', 'en-IN')).toBe('5 Nov 2026');
  });
});

describe('the edge\'s error page', () => {
  const page = (lang?: 'en' | 'hi') => errorPage({ databaseDown: true, supportEmail: 'help@shop.in', path: '/dashboard', requestId: 'r1', ...(lang ? { lang } : {}) }).text();

  test('in Hindi for a Hindi reader, with <html lang="hi">', async () => {
    const html = await page('hi');
    expect(html).toContain('<html lang="hi">');
    expect(html).toContain('<h1 style="font-size:1.25rem;margin:0 0 8px;color:#b91c1c">कनेक्शन में गड़बड़ी</h1>');
    expect(html).toContain('सेवा कुछ पल के लिए उपलब्ध नहीं है।');
    expect(html).toContain('>रीफ़्रेश करें</a>');
  });

  test('in English otherwise, as before', async () => {
    const html = await page();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('>Connection Error</h1>');
    expect(html).toContain('The service is briefly unavailable. Please try again in a moment.');
    expect(html).toContain('Your exchange requests are still available.');
  });
});
