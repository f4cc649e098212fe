/**
 * Runs the steps of a stop in order under one deadline for all of them together. Each step is told
 * how much time is left. Resolves true when every step finished, false when the deadline came first
 * (the caller then exits with the rest still running).
 */
export async function stopWithin(timeoutMs: number, steps: ((remainingMs: number) => Promise<unknown>)[]): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const all = (async () => {
    for (const step of steps) await step(Math.max(0, deadline - Date.now()));
    return true;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([all, late]);
  } finally {
    clearTimeout(timer);
  }
}
