import { setDefaultTimeout } from 'bun:test';

// Preloaded by `bun test` (bunfig.toml): quiet logs, and an unexpected console.error fails loudly.
process.env.LOG_LEVEL ??= 'warn';

const originalError = console.error;
console.error = (...args: unknown[]) => {
  originalError(...args);
  throw new Error(`console.error was called during a test: ${args.map(String).join(' ').slice(0, 300)}`);
};

// Tests start databases, servers and browsers: give each test room. (Bun applies this to the first
// file of a run only; `bun run test` passes --timeout=60000 for every file, as should a run of several.)
setDefaultTimeout(60_000);
