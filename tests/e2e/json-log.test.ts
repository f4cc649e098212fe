import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type RunningServer } from '#tests/helpers/server.ts';

/** LOG_FORMAT=json: what a log pipeline (Loki, jq) reads from the built server's stderr. */
describe('swappoints serve with LOG_FORMAT=json', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  });
  afterAll(() => server?.stop());

  test('every line it writes, the ready and stopping lines included, is one JSON object', async () => {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    await server.stop();
    const lines = server.log().split('\n').filter((line) => line.trim() !== '');
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; level?: unknown; time?: unknown };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
    const messages = parsed.map((entry) => entry.msg ?? '');
    expect(messages.some((msg) => msg.startsWith('SwapPoints is ready on '))).toBe(true);
    expect(messages).toContain('Stopping SwapPoints…');
    for (const entry of parsed) expect(entry.time).toBeDefined();
  });
});
