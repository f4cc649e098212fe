/**
 * How long a job waits after a failed attempt. Every queue (mail, credit pushes, webhook deliveries,
 * and any added later) picks its numbers here; none writes its own formula.
 */

/** `baseSeconds` × 2^attempts, at most `capSeconds`. */
export function exponentialSeconds(attempts: number, baseSeconds: number, capSeconds: number): number {
  return Math.min(capSeconds, baseSeconds * 2 ** Math.min(Math.max(attempts, 0), 30));
}

/** The wait after the n-th failed attempt from a fixed schedule; past its end the last one repeats. */
export function scheduledSeconds(attempts: number, schedule: readonly number[]): number {
  return schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1]!;
}

/**
 * `seconds` moved by up to ±`share` (0.1 is ±10 %), so jobs that failed together (a receiver or a
 * mail server that was down) do not all come back at the same moment. Millisecond precision.
 */
export function withJitter(seconds: number, share: number, random: number = Math.random()): number {
  return Math.round(seconds * (1 - share + 2 * share * random) * 1000) / 1000;
}
