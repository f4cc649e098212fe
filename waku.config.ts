import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'waku/config';

// In `waku dev`, lucide-react and Radix must be bundled into the server environments, or they
// load a second copy of React there ("Invalid hook call"). The production build bundles them anyway.
const bundledInServer = ['lucide-react', 'radix-ui', /^@radix-ui\//];

/**
 * `waku dev` only: names the module src/server-entry.tsx loads to start the API host on the first
 * request (cli/dev-host.ts, the host of `swappoints serve`), so the pages never import cli/ themselves.
 */
const devHost = {
  name: 'swappoints-dev-host',
  apply: 'serve' as const,
  configureServer() {
    (globalThis as Record<symbol, unknown>)[Symbol.for('swappoints.devHostModule')] = `${process.cwd()}/cli/dev-host.ts`;
  },
};

/** The admin's own client components: on no customer page (valuation's live estimate is on one). */
const ADMIN_ONLY = /\/src\/components\/(admin|analytics|webhooks|risk)\//;
/** The Hindi texts, loaded by a page in Hindi only (src/i18n/t.ts); no English page (every admin page is one) needs them. */
const HINDI_TEXTS = /\/src\/i18n\/hi(-[a-z]+)?\.ts$/;

/**
 * The browser's scripts in three chunks beside each page's own: the libraries (with the entry),
 * what the pages share, and the admin's screens; and the Hindi texts, for pages in Hindi. Left to itself Rollup made ~50 chunks of 1–3 KB
 * and a page preloaded 20–25 of them: over a phone's HTTP/1.1 (six requests at a time) each round
 * costs a round trip before the first paint (Lighthouse mobile: FCP 2.5–2.9 s, now 1.6–2.4 s).
 */
function clientChunkOf(id: string): string | undefined {
  // (the client entry goes with the libraries it starts: in the shared chunk it would import itself)
  if (id.includes('/node_modules/') || id.endsWith('/src/client-entry.tsx')) return 'vendor';
  if (ADMIN_ONLY.test(id)) return 'admin';
  if (HINDI_TEXTS.test(id)) return 'hindi';
  // (the API's rules the pages share must be claimed here, or the admin chunk takes them in)
  if (id.includes('/src/') || id.includes('/api/')) return 'app';
  return undefined;
}

export default defineConfig({
  unstable_adapter: 'waku/adapters/bun',
  // Two builds side by side (parallel work, benchmarks) each get their own output folder.
  distDir: process.env.SWAPPOINTS_DIST_DIR ?? 'dist',
  vite: {
    plugins: [tailwindcss(), devHost],
    // Waku's SSR injects the RSC payload with this package; ours passes the HTML through as bytes
    // instead of decoding and encoding all of it (src/lib/rsc-html-stream.ts)
    resolve: { alias: [{ find: /^rsc-html-stream\/server$/, replacement: fileURLToPath(new URL('./src/lib/rsc-html-stream.ts', import.meta.url)) }] },
    // Builds, the embedded database and tests are not sources of the pages.
    server: { watch: { ignored: ['**/dist*/**', '**/data/**', '**/tests/**', '**/bench/**'] } },
    environments: {
      client: { build: { rollupOptions: { output: { manualChunks: clientChunkOf } } } },
      rsc: { resolve: { noExternal: bundledInServer } },
      ssr: { resolve: { noExternal: bundledInServer } },
    },
  },
});
