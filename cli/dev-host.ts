import { loadSettings } from '#api/settings.ts';
import { runCli } from './program.ts';
import { startServerHost } from './server.ts';

/**
 * `bun run dev`: the same host as `swappoints serve`, started by Waku's dev server on its first request
 * (waku.config.ts hands this function to src/server-entry.tsx, which never imports cli/).
 */
export async function startDevHost() {
  const running = await startServerHost(loadSettings(), { runCli, dev: true });
  return running.host;
}
