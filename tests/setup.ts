import { setDefaultTimeout } from 'bun:test';

// Preloaded by `bun test` (bunfig.toml): quiet logs, and an unexpected console.error fails loudly.
process.env.LOG_LEVEL ??= 'warn';

const originalError = console.error;
/**
 * A browser test's server may run in the test's process (tests/helpers/server.ts, inProcess): what the
 * built pages' bundle (dist/server) writes with console.error, a page that failed to render
 * included, is that server's log, as it is from a server in a process of its own.
 */
const BUILT_SERVER_CODE = /\/dist[^/]*\/server\//;
console.error = (...args: unknown[]) => {
  originalError(...args);
  if (BUILT_SERVER_CODE.test(new Error().stack ?? '')) return;
  throw new Error(`console.error was called during a test: ${args.map(String).join(' ').slice(0, 300)}`);
};

// Tests start databases, servers and browsers: give each test room. (Bun applies this to the first
// file of a run only; `bun run test` passes --timeout=60000 for every file, as should a run of several.)
setDefaultTimeout(60_000);
