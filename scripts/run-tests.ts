/**
 * `bun test` with the project's flags and whatever else is given (`bun run test --randomize`, a
 * folder, a file), then the ten slowest test files, so that a file growing slow is seen at once.
 * Exits with bun test's code.
 *
 * `--no-isolate`: each worker keeps one module registry across the files it runs
 * instead of loading the app's modules again for every file. Measured on this machine (2026-11-28):
 * unit and API tests on PGlite 93 s and 173 CPU-s isolated, 55 s and 88 CPU-s not; the whole suite
 * with PostgreSQL 434 s to 402 s. It is safe because no test file changes what another can see:
 * none mocks a module, sets the clock or assigns process.env, and each closes what it opens.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareTemplates } from '#tests/helpers/db.ts';

/**
 * One worker more than cores: a test file spends part of its time waiting (a server starting, a
 * database being copied, a browser's round trips), and a third worker fills those gaps on two
 * cores. Measured on this machine (2026-11-28, the whole suite): with PostgreSQL 374 s with two
 * workers (16 % of the CPU idle), 323 s with three (3 % idle); PGlite only 306 s and 274 s.
 */
const workers = availableParallelism() + 1;

/**
 * `--build` (what `bun run test` passes): `bun run build` first, the pages' tests need dist/. The
 * migrated databases every test file copies are made meanwhile, in this process, on the core the
 * build leaves idle; without them each worker would build its own at the same moment.
 */
const args = process.argv.slice(2);
const build = args.includes('--build');
const building = build ? Bun.spawn(['bun', 'run', 'build'], { stdio: ['inherit', 'inherit', 'inherit'] }) : undefined;
try {
  await prepareTemplates();
} catch (error) {
  // the test files build them again and say what fails
  console.error(`the test databases' templates were not made beforehand: ${(error as Error).message}`);
}
const built = await building?.exited;
if (built) process.exit(built);

/**
 * Each file's usual duration (`tests/timings.json`), from which `bun test --parallel` starts the
 * slowest files first, so that a long browser file does not begin when the other workers are almost
 * done. Measured on this machine (2026-11-28, two full runs' file times): bun's default order would
 * end 4–6 % after the sum of the files' times divided among the workers, slowest-first within 0.1 %.
 * `bun run test --update-timings` rewrites the file from a run; `--randomize` orders files at random
 * instead (and its `--seed` repeats an order).
 */
const TIMINGS = 'tests/timings.json';

const dir = mkdtempSync(join(tmpdir(), 'swappoints-test-report-'));
const report = join(dir, 'junit.xml');
const proc = Bun.spawn(['bun', 'test', `--parallel=${workers}`, '--no-isolate', '--timeout=60000', '--reporter=junit', `--reporter-outfile=${report}`, `--timings=${TIMINGS}`, ...args.filter((arg) => arg !== '--build')], {
  stdio: ['inherit', 'inherit', 'inherit'],
});
const code = await proc.exited;

/** Each file's seconds, from the junit report's top-level suites (one per file). */
function fileTimes(xml: string): { file: string; seconds: number }[] {
  const times: { file: string; seconds: number }[] = [];
  // a file's suite is the one right under <testsuites>, indented by two spaces
  for (const match of xml.matchAll(/^ {2}<testsuite name="[^"]*" file="([^"]+)"[^>]* time="([\d.]+)"/gm)) times.push({ file: match[1]!, seconds: Number(match[2]) });
  return times.sort((a, b) => b.seconds - a.seconds);
}

try {
  const times = fileTimes(readFileSync(report, 'utf8'));
  // every file's seconds, for comparing two runs (TEST_TIMES_FILE=/tmp/times.json bun run test)
  if (process.env.TEST_TIMES_FILE) writeFileSync(process.env.TEST_TIMES_FILE, JSON.stringify(times, null, 1));
  const slowest = times.slice(0, 10);
  if (slowest.length > 0) {
    console.log('\nSlowest test files:');
    for (const { file, seconds } of slowest) console.log(`${seconds.toFixed(1).padStart(7)} s  ${file}`);
  }
} catch {
  // no report (bun test stopped before writing one): its own output says why
}
rmSync(dir, { recursive: true, force: true });
process.exit(code);
