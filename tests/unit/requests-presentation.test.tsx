import { describe, expect, test } from 'bun:test';
import { ERROR_SCREENS, errorMessage, errorVariant, supportMailto } from '#api/lib/error-screen.ts';
import { checkImageFile } from '#api/modules/images/rules.ts';
import { CONDITION_OPTIONS, conditionLabel, conditionShortLabel, transitChip } from '#api/modules/requests/rules.ts';
import { renderToStaticMarkup } from 'react-dom/server';
import { TransitProgress } from '#src/components/requests/transit-progress.tsx';
import {
  activeStep,
  CREDIT_ASSIGNED_LINE,
  OFFER_WAITING_LINE,
  formatDate,
  listHref,
  listView,
  localeFrom,
  matchesDashboardSearch,
  requestCountLabel,
  requestLine,
  reviewStepText,
  showingRange,
  statusBadge,
  statusLine,
  STEP_TITLES,
} from '#src/lib/requests.ts';

describe('conditions', () => {
  test('the six values with their labels and short labels (spec §3)', () => {
    expect(CONDITION_OPTIONS.map((c) => [c.value, c.label, c.short])).toEqual([
      ['new', 'New (with tags)', 'New'],
      ['like_new', 'Like New (without tags)', 'Like New'],
      ['very_good', 'Very Good (minimal wear)', 'Very Good'],
      ['good', 'Good (some signs of wear)', 'Good'],
      ['fair', 'Fair (visible wear)', 'Fair'],
      ['poor', 'Poor (significant wear)', 'Poor'],
    ]);
    expect(conditionLabel('very_good')).toBe('Very Good (minimal wear)');
    expect(conditionShortLabel('like_new')).toBe('Like New');
  });
});

describe('status badge (customer views)', () => {
  test('approved, declined and completed as such; anything else as Pending', () => {
    expect(statusBadge('approved').label).toBe('Approved');
    expect(statusBadge('declined').label).toBe('Declined');
    expect(statusBadge('completed').label).toBe('Completed');
    expect(statusBadge('pending').label).toBe('Pending');
    expect(statusBadge('weird').label).toBe('Pending');
    expect(statusBadge(null).label).toBe('Pending');
  });
});

describe('status line (spec §4)', () => {
  test('with a transit status', () => {
    expect(statusLine('approved', 'shipped')).toBe('Item has been shipped to us');
    expect(statusLine('approved', 'shipping')).toBe('Item has been shipped to us');
    expect(statusLine('approved', 'received')).toBe('Item received and under inspection');
    expect(statusLine('approved', 'ready')).toBe('Ready to ship back to you');
    expect(statusLine('approved', 'inspecting')).toBe('Transit status: inspecting');
  });
  test('without one', () => {
    expect(statusLine('approved', null)).toBe('Add Shipping Details!');
    expect(statusLine('declined', null)).toBe('Exchange request declined');
    expect(statusLine('completed', null)).toBe('Exchange process completed');
    expect(statusLine('pending', null)).toBe('Exchange pending review');
    expect(statusLine('odd', '')).toBe('Exchange pending review');
  });
  test('a finished request says it is finished whatever its transit status (a completed one keeps "received")', () => {
    expect(statusLine('completed', 'received')).toBe('Exchange process completed');
    expect(statusLine('completed', 'shipped')).toBe('Exchange process completed');
    expect(statusLine('declined', 'shipped')).toBe('Exchange request declined');
  });
});

describe("the dashboard's line for each status", () => {
  const base = { transitStatus: null as string | null, shippingDetails: null, creditAmount: 0, creditedAt: null as string | null, offer: null as { status: string } | null };
  const cases: [string, Partial<typeof base> & { status: string }, string][] = [
    ['pending', { status: 'pending' }, 'Exchange pending review'],
    ['declined', { status: 'declined' }, 'Exchange request declined'],
    ['approved, awaiting shipping', { status: 'approved' }, 'Add Shipping Details!'],
    ['approved, shipped', { status: 'approved', transitStatus: 'shipped' }, 'Item has been shipped to us'],
    ['approved, received', { status: 'approved', transitStatus: 'received' }, 'Item received and under inspection'],
    ['approved, received, an offer waiting for the answer', { status: 'approved', transitStatus: 'received', offer: { status: 'pending' } }, OFFER_WAITING_LINE],
    ['approved, credited', { status: 'approved', transitStatus: 'received', creditAmount: 2640, creditedAt: '2026-11-20T10:00:00Z' }, CREDIT_ASSIGNED_LINE],
    ['completed (received, credited)', { status: 'completed', transitStatus: 'received', creditAmount: 2640, creditedAt: '2026-11-20T10:00:00Z' }, 'Exchange process completed'],
  ];
  test.each(cases)('%s', (_name, facts, line) => {
    const request = { ...base, ...facts };
    expect(requestLine(request)).toBe(line);
    expect(renderToStaticMarkup(<TransitProgress request={request} />)).toContain(`>${line}</p>`);
  });
});

describe('transit chips', () => {
  test("Awaiting Shipping, Shipped ('shipping' read as 'shipped'), Received, Inspecting; none for pending or declined", () => {
    expect(transitChip({ status: 'approved', transitStatus: null, shippingDetails: null })?.label).toBe('Awaiting Shipping');
    expect(transitChip({ status: 'approved', transitStatus: 'shipped' })?.label).toBe('Shipped');
    expect(transitChip({ status: 'approved', transitStatus: 'shipping' })?.label).toBe('Shipped');
    expect(transitChip({ status: 'approved', transitStatus: 'received' })?.label).toBe('Received');
    expect(transitChip({ status: 'approved', transitStatus: 'inspecting' })?.label).toBe('Inspecting');
    expect(transitChip({ status: 'pending', transitStatus: null })).toBeNull();
    expect(transitChip({ status: 'declined', transitStatus: null })).toBeNull();
  });
});

describe('stepper', () => {
  test('the five step titles', () => {
    expect([...STEP_TITLES]).toEqual(['Review & Approval', 'Shipping', 'Inspection & Valuation', 'Credit Assignment', 'Exchange Complete']);
  });
  test('active step: 4 completed, 3 credit > 0, 2 received, 1 shipping or shipping details, else 0', () => {
    const base = { status: 'approved', transitStatus: null, shippingDetails: null, creditAmount: 0 };
    expect(activeStep(base)).toBe(0);
    expect(activeStep({ ...base, shippingDetails: { carrierName: 'x' } })).toBe(1);
    expect(activeStep({ ...base, transitStatus: 'shipping' })).toBe(1);
    expect(activeStep({ ...base, transitStatus: 'received' })).toBe(2);
    expect(activeStep({ ...base, transitStatus: 'received', creditAmount: 250 })).toBe(3);
    expect(activeStep({ ...base, transitStatus: 'received', creditAmount: 0, creditedAt: '2026-11-22T10:00:00.000Z' })).toBe(3);
    expect(activeStep({ ...base, status: 'completed', creditAmount: 250 })).toBe(4);
  });
  test('first-step texts', () => {
    expect(reviewStepText('approved')).toBe('This request has been approved.');
    expect(reviewStepText('pending')).toBe('Request is under review by our team.');
    expect(reviewStepText('declined')).toBe('This request was declined.');
  });
});

describe('dashboard and list', () => {
  test("count chip '1 Request' or 'N Requests'", () => {
    expect(requestCountLabel(1)).toBe('1 Request');
    expect(requestCountLabel(0)).toBe('0 Requests');
    expect(requestCountLabel(7)).toBe('7 Requests');
  });
  test('dashboard search: product name, brand or status, case-insensitive', () => {
    const r = { productName: 'HP 62 Ink Cartridge', brand: 'Hewlett-Packard', status: 'approved' };
    expect(matchesDashboardSearch(r, 'ink')).toBe(true);
    expect(matchesDashboardSearch(r, 'HEWLETT')).toBe(true);
    expect(matchesDashboardSearch(r, 'Approved')).toBe(true);
    expect(matchesDashboardSearch(r, 'canon')).toBe(false);
    expect(matchesDashboardSearch(r, '  ')).toBe(true);
  });
  test("'Showing x-y of n requests'", () => {
    expect(showingRange(1, 10, 23)).toBe('Showing 1-10 of 23 requests');
    expect(showingRange(3, 10, 23)).toBe('Showing 21-23 of 23 requests');
  });
  test('the list view lives in the URL, and odd values fall back', () => {
    expect(listView('q=ink&status=approved&page=2')).toEqual({ q: 'ink', status: 'approved', page: 2 });
    expect(listView('status=nope&page=-3')).toEqual({ q: '', status: '', page: 1 });
    expect(listView('status=cancelled')).toEqual({ q: '', status: 'cancelled', page: 1 });
    expect(listHref({ q: 'a b', status: 'pending', page: 1 })).toBe('/exchange?q=a+b&status=pending');
    expect(listHref({})).toBe('/exchange');
  });
});

describe('images', () => {
  test("'File {name} is too large. Max size is 5MB' past 5242880 bytes; 'File {name} is not an image' for other types", () => {
    expect(checkImageFile({ name: 'a.png', size: 5_242_880, type: 'image/png' })).toBeNull();
    expect(checkImageFile({ name: 'big.jpg', size: 5_242_881, type: 'image/jpeg' })).toBe('File big.jpg is too large. Max size is 5MB');
    expect(checkImageFile({ name: 'notes.txt', size: 10, type: 'text/plain' })).toBe('File notes.txt is not an image');
  });
});

describe('dates in the customer locale', () => {
  test('Accept-Language picks the locale; a bare day never shifts', () => {
    expect(localeFrom('en-IN,en;q=0.9')).toBe('en-IN');
    expect(localeFrom('')).toBe('en-IN');
    expect(formatDate('2025-03-05', 'en-US')).toBe('Mar 5, 2025');
    expect(formatDate('2025-03-05', 'en-GB')).toBe('5 Mar 2025');
    expect(formatDate('garbage', 'en-GB')).toBe('—');
  });
});

describe('error screen variants (§2, §8)', () => {
  test("'not found' or 404 → Shopify Account Not Found (Try Again, Contact Support)", () => {
    const failure = { status: 404, error: 'User not found in Shopify' };
    expect(errorVariant(failure)).toBe('shopify_user_not_found');
    expect(errorVariant({ status: 500, error: 'Customer not found' })).toBe('shopify_user_not_found');
    expect(ERROR_SCREENS.shopify_user_not_found).toEqual({ title: 'Shopify Account Not Found', actions: ['try-again', 'contact-support'] });
    expect(errorMessage(failure)).toBe('User not found in Shopify');
  });
  test('other responses (502, 504) and no response → Connection Error (Refresh, Contact Support)', () => {
    expect(errorVariant({ status: 502, error: 'Error connecting to Shopify' })).toBe('connection_error');
    expect(errorVariant({ status: 504, error: null })).toBe('connection_error');
    expect(errorVariant({ status: 0, error: null })).toBe('connection_error');
    expect(errorMessage({ status: 0, error: null })).toBe('No response from server');
    expect(errorMessage({ status: 502, error: null })).toBe('Error connecting to Shopify');
    expect(ERROR_SCREENS.connection_error).toEqual({ title: 'Connection Error', actions: ['refresh', 'contact-support'] });
  });
  test('401 → Authentication Error (Try Again, Sign Out); a failure with no call behind it → Something Went Wrong', () => {
    expect(errorVariant({ status: 401, error: 'Session expired' })).toBe('auth_error');
    expect(ERROR_SCREENS.auth_error).toEqual({ title: 'Authentication Error', actions: ['try-again', 'sign-out'] });
    expect(errorVariant({ status: null, error: null })).toBe('other');
    expect(ERROR_SCREENS.other).toEqual({ title: 'Something Went Wrong', actions: ['refresh', 'contact-support'] });
  });
  test('Contact Support is a mailto: to the support address', () => {
    expect(supportMailto('help@shop.example', 'connection_error')).toStartWith('mailto:help@shop.example?subject=');
  });
});
