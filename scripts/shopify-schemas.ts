/**
 * Shopify's published Admin GraphQL schemas, kept for the tests' fake Shopify
 * (tests/helpers/fake-shopify-schema.ts): reads SDL files named `YYYY-MM.schema.graphql` (as the
 * repository nozzlegear/ShopifySharp publishes them in `graphql-schemas/`), drops the descriptions
 * (about 80 % of the bytes; the types, fields, arguments and enums stay exactly as published) and
 * writes `tests/fixtures/shopify-admin/YYYY-MM.graphql.gz`.
 *
 *   bun scripts/shopify-schemas.ts DIR_WITH_SDL_FILES [VERSION ...]
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, print, visit, type ASTNode } from 'graphql';

const [dir, ...versions] = process.argv.slice(2);
if (!dir) {
  console.error('Usage: bun scripts/shopify-schemas.ts DIR_WITH_SDL_FILES [VERSION ...]');
  process.exit(2);
}
const out = join(import.meta.dir, '../tests/fixtures/shopify-admin');
const wanted = versions.length ? versions : readdirSync(dir).flatMap((f) => /^(\d{4}-\d{2})\.schema\.graphql$/.exec(f)?.[1] ?? []);
for (const version of wanted) {
  const sdl = await Bun.file(join(dir, `${version}.schema.graphql`)).text();
  const bare = print(visit(parse(sdl), { enter: (node: ASTNode) => ('description' in node && node.description ? { ...node, description: undefined } : undefined) }));
  const gz = Bun.gzipSync(new TextEncoder().encode(bare + '\n'), { level: 9 });
  await Bun.write(join(out, `${version}.graphql.gz`), gz);
  console.log(`${version}: ${sdl.length} bytes published, ${bare.length} without descriptions, ${gz.length} gzipped`);
}
