import { describe, expect, test } from 'bun:test';
import { carriersFor, defaultAdminOrder, eventLabel, isFutureDay, todayIn } from '#api/modules/requests/rules.ts';
import { ageLabel, journeyState, waitingOn } from '#src/lib/journey.ts';
import { formatDateTime, showingRange, tooManyImagesMessage } from '#src/lib/requests.ts';

const at = (iso: string) => new Date(iso);

describe('journey presentation', () => {
  test("the queue's Age: minutes, hours, then days, singular and plural", () => {
    const now = at('2026-11-22T12:00:00Z');
    expect(ageLabel('2026-11-22T11:59:00Z', now)).toBe('1 minute');
    expect(ageLabel('2026-11-22T11:15:00Z', now)).toBe('45 minutes');
    expect(ageLabel('2026-11-22T11:00:00Z', now)).toBe('1 hour');
    expect(ageLabel('2026-11-21T13:00:00Z', now)).toBe('23 hours');
    expect(ageLabel('2026-11-21T12:00:00Z', now)).toBe('1 day');
    expect(ageLabel('2026-11-19T09:00:00Z', now)).toBe('3 days');
  });

  test('each request is in exactly one journey state, and says who it waits for', () => {
    const base = { status: 'approved', transitStatus: null, shippingDetails: null, creditAmount: 0 };
    expect(journeyState({ ...base, status: 'pending' })).toBe('pending');
    expect(journeyState({ ...base, status: 'declined' })).toBe('declined');
    expect(journeyState(base)).toBe('awaiting-shipping');
    expect(journeyState({ ...base, transitStatus: 'shipped', shippingDetails: {} })).toBe('in-transit');
    expect(journeyState({ ...base, transitStatus: 'received', shippingDetails: {} })).toBe('received');
    expect(journeyState({ ...base, transitStatus: 'received', shippingDetails: {}, creditAmount: 5 })).toBe('credited');
    expect(journeyState({ ...base, status: 'completed', transitStatus: 'received', creditAmount: 5 })).toBe('completed');
    expect(waitingOn('awaiting-shipping')).toBe('Waiting for you');
    expect(waitingOn('awaiting-shipping', 'admin')).toBe('Waiting for the customer');
    expect(waitingOn('received', 'admin')).toBe('Waiting for you');
    expect(waitingOn('completed')).toBeNull();
  });

  test("'of 1 request' in the singular; a sixth photo is refused in words", () => {
    expect(showingRange(1, 10, 1)).toBe('Showing 1-1 of 1 request');
    expect(showingRange(1, 10, 2)).toBe('Showing 1-2 of 2 requests');
    expect(tooManyImagesMessage(1)).toBe('At most 5 images are allowed: 1 photo was not added.');
    expect(tooManyImagesMessage(3)).toBe('At most 5 images are allowed: 3 photos were not added.');
  });

  test("times are shown in the shop's zone with its name", () => {
    expect(formatDateTime('2026-11-22T20:00:00Z', 'en-IN', 'Asia/Kolkata')).toBe('23 Nov 2026, 1:30 am IST');
    expect(eventLabel('shipped', 'shipped')).toBe('Shipping details corrected');
    expect(eventLabel('shipped', null)).toBe('Shipping details submitted');
  });

  test("today and the future in the shop's zone; carriers of the shop's country; pending oldest first", () => {
    const now = at('2026-11-22T20:00:00Z');
    expect(todayIn('Asia/Kolkata', now)).toBe('2026-11-23');
    expect(todayIn('America/New_York', now)).toBe('2026-11-22');
    expect(isFutureDay('2026-11-23', 'Asia/Kolkata', now)).toBe(false);
    expect(isFutureDay('2026-11-23', 'America/New_York', now)).toBe(true);
    expect(carriersFor('IN').slice(0, 4)).toEqual(['Delhivery', 'Blue Dart', 'DTDC', 'India Post']);
    expect(carriersFor('in')).toEqual(carriersFor('IN'));
    expect(carriersFor('ZZ')).toEqual(['DHL', 'FedEx', 'UPS']);
    expect(defaultAdminOrder(0)).toEqual({ sort: 'date', order: 'asc' });
    expect(defaultAdminOrder(2)).toEqual({ sort: 'date', order: 'desc' });
  });
});
