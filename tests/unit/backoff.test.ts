import { describe, expect, test } from 'bun:test';
import { exponentialSeconds, scheduledSeconds, withJitter } from '#api/jobs/backoff.ts';
import { mailBackoffSeconds } from '#api/modules/mail/service.ts';
import { retryDelaySeconds } from '#api/modules/webhooks/rules.ts';

describe('one backoff for every job queue (api/jobs/backoff.ts)', () => {
  test('exponential: base × 2^attempts, capped', () => {
    expect([0, 1, 2, 3, 8, 40].map((n) => exponentialSeconds(n, 15, 3600))).toEqual([15, 30, 60, 120, 3600, 3600]);
  });

  test('scheduled: the n-th wait of the list, then the last one again', () => {
    expect([0, 1, 2, 3, 4, 9].map((n) => scheduledSeconds(n, [5, 60, 600]))).toEqual([5, 5, 60, 600, 600, 600]);
  });

  test('jitter moves a wait by at most ±share, across the whole range', () => {
    expect(withJitter(100, 0.1, 0)).toBe(90);
    expect(withJitter(100, 0.1, 0.5)).toBe(100);
    expect(withJitter(100, 0.1, 1)).toBe(110);
    const waits = Array.from({ length: 200 }, () => withJitter(100, 0.1));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(90);
    expect(Math.max(...waits)).toBeLessThanOrEqual(110);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  test('mail waits 15 s × 2^attempts (at most an hour) ±10 %, so a mail server coming back is not hit all at once', () => {
    expect([1, 2, 10].map((n) => mailBackoffSeconds(n, 0.5))).toEqual([30, 60, 3600]);
    expect(mailBackoffSeconds(1, 0)).toBe(27);
    expect(mailBackoffSeconds(1, 1)).toBe(33);
  });

  test('webhooks keep the Standard Webhooks schedule ±10 %', () => {
    expect([1, 2, 3, 6, 9].map((n) => retryDelaySeconds(n, 0.5))).toEqual([5, 300, 1800, 36_000, 36_000]);
    expect(retryDelaySeconds(2, 0)).toBe(270);
  });
});
