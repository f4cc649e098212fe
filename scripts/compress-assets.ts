/**
 * Build step after `waku build`: writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside
 * every compressible built asset in `<dist>/public`, so the edge serves them without compressing
 * per request (api/http/compression.ts). A copy that would not be smaller is not written.
 *
 *   bun scripts/compress-assets.ts [distDir]      (default: SWAPPOINTS_DIST_DIR or dist)
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|map|webmanifest|ico)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const dist = process.argv[2] ?? process.env.SWAPPOINTS_DIST_DIR ?? 'dist';
const publicDir = join(dist, 'public');
let count = 0;
let raw = 0;
let br = 0;
for (const path of files(publicDir)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const bytes = readFileSync(path);
  const copies = [
    ['.br', brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })],
    ['.gz', gzipSync(bytes, { level: 9 })],
  ] as const;
  for (const [ext, copy] of copies) {
    if (copy.length < bytes.length) writeFileSync(`${path}${ext}`, copy);
    else rmSync(`${path}${ext}`, { force: true });
  }
  count += 1;
  raw += statSync(path).size;
  br += Math.min(copies[0][1].length, bytes.length);
}
console.log(`compressed ${count} assets in ${publicDir}: ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli`);
