import { loadSettings } from '#api/settings.ts';
import { startServerHost } from './server.ts';

/** `bun run dev`: the same host as `swappoints serve`, started by Waku's dev server on its first request. */
export async function startDevHost() {
  const running = await startServerHost(loadSettings(), { dev: true });
  return running.host;
}
