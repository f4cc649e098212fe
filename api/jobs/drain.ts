/** What one batch of a background worker did. */
export interface BatchReport {
  claimed: number;
  succeeded: number;
  failed: number;
}

/**
 * Runs `batch` until it claims fewer than `size` rows, adding up what each batch did; once `signal`
 * is aborted (the server is stopping) it ends after the batch in hand, leaving the rest due.
 */
export async function drainInBatches<R extends BatchReport>(batch: (limit: number) => Promise<R>, size = 20, signal?: AbortSignal): Promise<BatchReport> {
  const total: BatchReport = { claimed: 0, succeeded: 0, failed: 0 };
  for (;;) {
    const done = await batch(size);
    total.claimed += done.claimed;
    total.succeeded += done.succeeded;
    total.failed += done.failed;
    if (done.claimed < size || signal?.aborted) return total;
  }
}
