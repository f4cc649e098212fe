import { describe, expect, test } from 'bun:test';
import { drainInBatches } from '#api/jobs/drain.ts';

/** A queue of `due` rows that each batch takes up to `limit` of; `onBatch` runs after each batch. */
function queue(due: number, onBatch: () => void = () => {}) {
  let left = due;
  let batches = 0;
  return {
    batch: async (limit: number) => {
      const claimed = Math.min(limit, left);
      left -= claimed;
      batches++;
      onBatch();
      return { claimed, succeeded: claimed, failed: 0 };
    },
    left: () => left,
    batches: () => batches,
  };
}

describe('draining a queue in batches', () => {
  test('without a stop it works until a batch claims fewer than its size', async () => {
    const q = queue(45);
    expect(await drainInBatches(q.batch, 20)).toEqual({ claimed: 45, succeeded: 45, failed: 0 });
    expect(q.batches()).toBe(3);
  });

  test('a stop during a batch ends the drain after that batch, leaving the rest due', async () => {
    const stop = new AbortController();
    const q = queue(100, () => stop.abort());
    expect(await drainInBatches(q.batch, 20, stop.signal)).toEqual({ claimed: 20, succeeded: 20, failed: 0 });
    expect(q.batches()).toBe(1);
    expect(q.left()).toBe(80);
  });
});
