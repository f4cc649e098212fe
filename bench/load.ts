/** The load generator of bench:api: clients in this process, their figures, and the server's CPU per request. */

import { cpuMsFromStat } from './process-cpu.ts';

export interface Figures {
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** the serving process's CPU time per request (app and floor share it; measured per slice) */
  cpuMs?: number;
}

export type Next = () => { url: string; token: string };

/** What one side of a measure collects over its slices. */
interface Tally {
  latencies: number[];
  errors: number;
  seconds: number;
  cpuSeconds: number;
}

const newTally = (): Tally => ({ latencies: [], errors: 0, seconds: 0, cpuSeconds: 0 });

/** CPU seconds (user + system) a process has used, from /proc; 0 where there is no /proc. */
function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return cpuMsFromStat(`/proc/${pid}/stat`) / 1000;
  } catch {
    return 0;
  }
}

/** `concurrency` clients for `ms`, then until the requests in flight have answered. */
async function run(ms: number, concurrency: number, next: Next, into?: Tally, pid?: number) {
  const cpuBefore = cpuSecondsOf(pid);
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const { url, token } = next();
        const sent = performance.now();
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (!into) continue;
        into.latencies.push(performance.now() - sent);
        if (res.status !== 200) into.errors++;
      }
    }),
  );
  if (!into) return;
  into.seconds += (performance.now() - started) / 1000;
  into.cpuSeconds += cpuSecondsOf(pid) - cpuBefore;
}

function figures(tally: Tally, withCpu: boolean): Figures {
  const latencies = tally.latencies.sort((a, b) => a - b);
  const at = (p: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2));
  const cpuMs = withCpu ? Number(((tally.cpuSeconds / latencies.length) * 1000).toFixed(3)) : undefined;
  return { reqPerSec: Math.round(latencies.length / tally.seconds), p50: at(0.5), p95: at(0.95), p99: at(0.99), errors: tally.errors, cpuMs };
}

/** One endpoint: 1 s of warm-up, then `seconds` measured. */
export async function load(seconds: number, concurrency: number, next: Next): Promise<Figures> {
  await run(1000, concurrency, next);
  const tally = newTally();
  await run(seconds * 1000, concurrency, next, tally);
  return figures(tally, false);
}

/**
 * The app and its floor measured in turns of one second each (`seconds` of each in all), so a
 * change in the machine's load (it is shared) falls on both alike rather than on whichever ran
 * second; the serving process's CPU per request is taken in the same turns.
 */
export async function loadPair(seconds: number, concurrency: number, app: Next, floor: Next, pid: number): Promise<{ app: Figures; floor: Figures }> {
  await run(1000, concurrency, app);
  await run(1000, concurrency, floor);
  const [a, f] = [newTally(), newTally()];
  for (let turn = 0; turn < seconds; turn++) {
    await run(1000, concurrency, app, a, pid);
    await run(1000, concurrency, floor, f, pid);
  }
  return { app: figures(a, true), floor: figures(f, true) };
}
