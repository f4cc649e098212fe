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

export default defineConfig({
  unstable_adapter: 'waku/adapters/bun',
  // Two builds side by side (parallel work, benchmarks) each get their own output folder.
  distDir: process.env.SWAPPOINTS_DIST_DIR ?? 'dist',
  vite: {
    plugins: [tailwindcss(), devHost],
    // Builds, the embedded database and tests are not sources of the pages.
    server: { watch: { ignored: ['**/dist*/**', '**/data/**', '**/tests/**', '**/bench/**'] } },
    environments: {
      rsc: { resolve: { noExternal: bundledInServer } },
      ssr: { resolve: { noExternal: bundledInServer } },
    },
  },
});
